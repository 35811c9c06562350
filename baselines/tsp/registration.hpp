// registration.hpp — what the registrations of this folder's solvers share (each solver's
// registration is its own <algorithm>_params.cpp, beside the algorithm): the deadline as a
// Poll, an outcome from a tour, and a table's solve in the "compute" phase.
#pragma once
#include <fmt/format.h>

#include <new>

#include "dpgpu/error.hpp"
#include "dpgpu/out_of_memory.hpp"
#include "dpgpu/deadline_poll.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"

namespace tsp::cpu {

// The names every registration here uses.
using dpgpu::Context;
using dpgpu::MemoryNeed;
using dpgpu::Params;
using Outcome = dpgpu::Outcome<tsp::Solution>;

using dpgpu::deadline_of;  // the solve stops at its deadline

inline Outcome with_certificate(Tour t) {
  return Outcome{t.cost, tsp::Solution{std::move(t.tour)}, std::nullopt};
}

// Runs `solve` in the "compute" phase; a table that cannot be allocated becomes OutOfMemory.
template <class Solve>
Outcome computed(dpgpu::Context& ctx, const char* solver, std::uint64_t bytes, Solve&& solve) {
  ctx.set("table_bytes", double(bytes));
  auto compute = ctx.phase("compute");
  return with_certificate(dpgpu::out_of_memory_as_error(solver, bytes, std::forward<Solve>(solve)));
}

}  // namespace tsp::cpu
