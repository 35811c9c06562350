// registration.hpp — what the registrations of this folder's solvers share (each solver's
// registration is its own <algorithm>_params.cpp, beside the algorithm): an outcome from a
// table's answer.
#pragma once
#include "dpgpu/registry.hpp"
#include "sdp_cpu.hpp"

namespace sdp::cpu {

inline dpgpu::Outcome<Solution> outcome(const TableAnswer& a) {
  dpgpu::Outcome<Solution> o;
  o.objective = dpgpu::Objective(a.objective);
  o.checksum = a.checksum;
  o.solution = Solution{a.checksum};
  return o;
}

}  // namespace sdp::cpu
