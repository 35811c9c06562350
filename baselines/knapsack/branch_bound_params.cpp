// cpu.branch_bound as the harness sees it (the algorithm: branch_bound.cpp).
#include "registration.hpp"

namespace knapsack::cpu {
namespace {

[[maybe_unused]] const auto registered_branch_bound =
    dpgpu::solver<knapsack::Problem>(
        "cpu.branch_bound",
        "depth-first branch and bound with the Dantzig bound (the paper's CPU comparator)")
        .work_counter("nodes")  // its work is the nodes it visited, not the DP's n·C cells
        .counter("nodes", dpgpu::CounterKind::Count, "search nodes visited", "nodes")
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
}  // namespace knapsack::cpu
