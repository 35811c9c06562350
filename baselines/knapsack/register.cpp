// The CPU solvers of the 0-1 knapsack, as the harness sees them.
#include <fmt/format.h>
#include <omp.h>

#include <new>
#include <stdexcept>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_cpu.hpp"

namespace {

using dpgpu::Context;
using dpgpu::MemoryNeed;
using dpgpu::Params;
using Outcome = dpgpu::Outcome<knapsack::Solution>;

knapsack::cpu::Poll deadline_of(Context& ctx) {
  return [&ctx] { ctx.check_deadline(); };
}

Outcome with_certificate(knapsack::cpu::Packing p) {
  return Outcome{p.value, knapsack::Solution{std::move(p.items)}, std::nullopt};
}

// A DP whose arrays cannot be had is out of memory, not a crash.
template <class Fn>
Outcome allocating(const char* solver, std::uint64_t bytes, Fn&& fn) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    throw dpgpu::OutOfMemory(fmt::format("{}: could not allocate {} bytes", solver, bytes));
  } catch (const std::length_error&) {
    throw dpgpu::OutOfMemory(fmt::format("{}: {} bytes is more than can be allocated", solver, bytes));
  }
}

void count_dp(Context& ctx, const knapsack::Instance& x) {
  ctx.set("cell_bits", knapsack::cpu::values_fit_32_bits(x) ? 32 : 64);
}

[[maybe_unused]] const auto registered_dp =
    dpgpu::solver<knapsack::Problem>("cpu.dp", "serial DP over one array of C+1 values, decision bits for the certificate")
        .memory([](const knapsack::Instance& x, const Params&) { return MemoryNeed{knapsack::cpu::dp_bytes(x), 0}; })
        .solve([](const knapsack::Instance& x, const Params&, Context& ctx) {
          const auto bytes = knapsack::cpu::dp_bytes(x);
          count_dp(ctx, x);
          return allocating("cpu.dp", bytes, [&] {
            auto compute = ctx.phase("compute");
            return with_certificate(knapsack::cpu::dp(x, deadline_of(ctx)));
          });
        });

[[maybe_unused]] const auto registered_omp_dp =
    dpgpu::solver<knapsack::Problem>("cpu.omp_dp", "OpenMP DP: each item's row in parallel over capacities; certificate")
        .param("threads", std::int64_t{0}, dpgpu::between(0, 1024), "OpenMP threads; 0: OpenMP's default (all cores)")
        .memory([](const knapsack::Instance& x, const Params&) { return MemoryNeed{knapsack::cpu::omp_dp_bytes(x), 0}; })
        .solve([](const knapsack::Instance& x, const Params& p, Context& ctx) {
          const int threads = static_cast<int>(p.integer("threads"));
          ctx.set("threads", threads > 0 ? threads : omp_get_max_threads());
          count_dp(ctx, x);
          return allocating("cpu.omp_dp", knapsack::cpu::omp_dp_bytes(x), [&] {
            auto compute = ctx.phase("compute");
            return with_certificate(knapsack::cpu::omp_dp(x, threads, deadline_of(ctx)));
          });
        });

[[maybe_unused]] const auto registered_branch_bound =
    dpgpu::solver<knapsack::Problem>("cpu.branch_bound",
                                     "depth-first branch and bound with the Dantzig bound (the paper's CPU comparator)")
        .work_counter("nodes")  // its work is the nodes it visited, not the DP's n·C cells
        .memory([](const knapsack::Instance& x, const Params&) {
          return MemoryNeed{knapsack::cpu::branch_bound_bytes(x), 0};
        })
        .solve([](const knapsack::Instance& x, const Params&, Context& ctx) {
          knapsack::cpu::SearchStats stats;
          Outcome out;
          {
            auto compute = ctx.phase("compute");
            out = with_certificate(knapsack::cpu::branch_bound(x, deadline_of(ctx), &stats));
          }
          ctx.set("nodes", double(stats.nodes));
          return out;
        });

}  // namespace
