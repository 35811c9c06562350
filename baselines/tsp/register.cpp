// The CPU solvers of the TSP, as the harness sees them.
#include <fmt/format.h>
#include <omp.h>

#include <new>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"

namespace {

using dpgpu::Context;
using dpgpu::MemoryNeed;
using dpgpu::Params;
using Outcome = dpgpu::Outcome<tsp::Solution>;

tsp::cpu::Poll deadline_of(Context& ctx) {
  return [&ctx] { ctx.check_deadline(); };
}

Outcome with_certificate(tsp::cpu::Tour t) { return Outcome{t.cost, tsp::Solution{std::move(t.tour)}, std::nullopt}; }

// Runs `solve` in the "compute" phase; a table that cannot be allocated becomes OutOfMemory.
template <class Solve>
Outcome computed(Context& ctx, const char* solver, std::uint64_t bytes, Solve&& solve) {
  ctx.set("table_bytes", double(bytes));
  auto compute = ctx.phase("compute");
  try {
    return with_certificate(solve());
  } catch (const std::bad_alloc&) {
    throw dpgpu::OutOfMemory(fmt::format("{}: could not allocate {} bytes", solver, bytes));
  }
}

[[maybe_unused]] const auto registered_held_karp =
    dpgpu::solver<tsp::Problem>("cpu.held_karp",
                                "Held-Karp DP, one thread, whole 2^(n-1)·(n-1) table; tour from stored predecessors")
        .memory([](const tsp::Instance& x, const Params&) { return MemoryNeed{tsp::cpu::held_karp_bytes(x), 0}; })
        .solve([](const tsp::Instance& x, const Params&, Context& ctx) {
          ctx.set("cell_bytes", double(tsp::cpu::held_karp_cell_bytes(x)));
          return computed(ctx, "cpu.held_karp", tsp::cpu::held_karp_bytes(x),
                          [&] { return tsp::cpu::held_karp(x, deadline_of(ctx)); });
        });

struct OmpHeldKarpConfig {
  int threads = 0;                                  // 0: OpenMP's default (all cores)
  std::int64_t block = tsp::cpu::kDefaultBlock;    // consecutive subsets per OpenMP task
};

[[maybe_unused]] const auto registered_omp_held_karp =
    dpgpu::solver<tsp::Problem, OmpHeldKarpConfig>("cpu.omp_held_karp",
                                                   "Held-Karp DP, OpenMP over the ranked subsets of one size, layer after layer")
        .param("threads", &OmpHeldKarpConfig::threads, dpgpu::between(0, 1024), "OpenMP threads; 0: OpenMP's default (all cores)")
        .param("block", &OmpHeldKarpConfig::block, dpgpu::between(1, 1 << 24),
               "consecutive subsets per OpenMP task; a layer of one block runs on one thread")
        .memory([](const tsp::Instance& x, const OmpHeldKarpConfig&) { return MemoryNeed{tsp::cpu::omp_held_karp_bytes(x), 0}; })
        .solve([](const tsp::Instance& x, const OmpHeldKarpConfig& c, Context& ctx) {
          ctx.set("threads", c.threads > 0 ? c.threads : omp_get_max_threads());
          ctx.set("cell_bytes", double(tsp::cpu::held_karp_cell_bytes(x)));
          return computed(ctx, "cpu.omp_held_karp", tsp::cpu::omp_held_karp_bytes(x), [&] {
            return tsp::cpu::omp_held_karp(x, c.threads, std::uint64_t(c.block), deadline_of(ctx));
          });
        });

}  // namespace
