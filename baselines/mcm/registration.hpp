// registration.hpp — what the registrations of this folder's solvers share (each solver's
// registration is its own <algorithm>_params.cpp, beside the algorithm): an outcome from an
// answer, and the int64 cost bound every solver here declares (so `dpgpu check` finds it).
#pragma once
#include <optional>
#include <string>

#include "dpgpu/registry.hpp"
#include "mcm_cpu.hpp"

namespace mcm::cpu {

inline dpgpu::Outcome<Solution> outcome(Answer a) {
  dpgpu::Outcome<Solution> o;
  o.objective = dpgpu::Objective(a.cost);
  o.solution = Solution{std::move(a.parenthesization)};
  return o;
}

// The int64 cost bound, a rule between every solver here and the instance.
inline std::optional<std::string> int64_rule(const dpgpu::Params&, const Instance& x) {
  return dpgpu::refusal(int64_excess(x));
}

}  // namespace mcm::cpu
