// registration.hpp — what the registrations of this folder's solvers share (each solver's
// registration is its own <algorithm>_params.cpp, beside the algorithm): the deadline as a
// Poll, outcomes from a packing, and allocation failures as OutOfMemory.
#pragma once
#include <fmt/format.h>

#include <new>
#include <stdexcept>

#include "dpgpu/error.hpp"
#include "dpgpu/out_of_memory.hpp"
#include "dpgpu/deadline_poll.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_cpu.hpp"

namespace knapsack::cpu {

// The names every registration here uses.
using dpgpu::Context;
using dpgpu::MemoryNeed;
using dpgpu::Params;
using Outcome = dpgpu::Outcome<knapsack::Solution>;

using dpgpu::deadline_of;  // the solve stops at its deadline

inline Outcome with_certificate(Packing p) {
  return Outcome{p.value, knapsack::Solution{std::move(p.items)}, std::nullopt};
}

// A DP whose arrays cannot be had is out of memory, not a crash.
template <class Fn>
Outcome allocating(const char* solver, std::uint64_t bytes, Fn&& fn) {
  try {
    return dpgpu::out_of_memory_as_error(solver, bytes, std::forward<Fn>(fn));
  } catch (const std::length_error&) {
    throw dpgpu::OutOfMemory(
        fmt::format("{}: {} bytes is more than can be allocated", solver, bytes));
  }
}

inline void count_dp(dpgpu::Context& ctx, const knapsack::Instance& x) {
  ctx.set("cell_bits", values_fit_32_bits(x) ? 32 : 64);
}

}  // namespace knapsack::cpu
