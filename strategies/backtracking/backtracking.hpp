// backtracking.hpp — plain C++ entry points of gpu.ivm and gpu.bpdfs (the registration and
// the tests call these; CUDA stays in the .cu files).
#pragma once
#include <cstdint>
#include <vector>

#include "backtracking_config.hpp"
#include "dpgpu/context.hpp"
#include "tsp/tsp.hpp"

namespace dpgpu::backtracking {

struct SearchOutcome {
  std::int64_t cost = 0;           // the held tour's closed cost
  std::vector<std::int32_t> tour;  // starts at city 0; empty when no tour costs <= the bound
  std::uint64_t nodes = 0;         // nodes counted (problems/tsp/search_bound.hpp)
};

// Both search from `bound` (tsp::starting_bound). Counters and phases: README.md.
// gpu.ivm: 1 <= n <= kIvmMaxCities (21; 64-bit factoradic positions), else dpgpu::InputError.
SearchOutcome ivm_search(const tsp::Instance& x, const IvmConfig& c, std::int64_t bound,
                         Context& ctx);
// gpu.bpdfs: 1 <= n <= kBpMaxCities (32; 32-bit bitsets), else dpgpu::InputError.
SearchOutcome bpdfs_search(const tsp::Instance& x, const BpdfsConfig& c, std::int64_t bound,
                           Context& ctx);

}  // namespace dpgpu::backtracking
