// solver.hpp — what a solver returns.
#pragma once
#include <cstdint>
#include <optional>

#include "dpgpu/problem.hpp"

namespace dpgpu {

// The result of one solve. `solution` is the certificate when the solver makes one;
// `checksum` is for problems whose solvers must also agree on a fingerprint of the table.
template <class Solution>
struct Outcome {
  Objective objective = 0;
  std::optional<Solution> solution;
  std::optional<std::uint64_t> checksum;
};

// Memory a solve needs, for refusing sizes that cannot fit before anything runs.
struct MemoryNeed {
  std::uint64_t host = 0;
  std::uint64_t device = 0;
};

}  // namespace dpgpu
