// registration.hpp — what the registrations of this folder's solvers share (each solver's
// registration is its own <algorithm>_params.cpp, beside the algorithm): the deadline as a
// Poll, outcomes from a length or a subsequence, and row sizes for the memory estimates.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "dpgpu/deadline_poll.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"

namespace lcs::cpu {

// The names every registration here uses.
using dpgpu::Context;
using dpgpu::MemoryNeed;
using dpgpu::Params;
using Outcome = dpgpu::Outcome<lcs::Solution>;

using dpgpu::deadline_of;  // the solve stops at its deadline

inline Outcome length_only(std::int64_t length) {
  return Outcome{length, std::nullopt, std::nullopt};
}

inline Outcome with_certificate(std::string subsequence) {
  const auto length = static_cast<dpgpu::Objective>(subsequence.size());
  return Outcome{length, lcs::Solution{std::move(subsequence)}, std::nullopt};
}

inline std::uint64_t row_bytes(std::size_t length) { return (length + 1) * sizeof(std::uint32_t); }

// OpenMP's threads when a solver is given 0.
inline int threads_or_all(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

}  // namespace lcs::cpu
