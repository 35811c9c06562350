// cpu.bnb as the harness sees it (the search: bnb.hpp).
#include <algorithm>
#include <chrono>
#include <optional>

#include "bnb.hpp"
#include "dpgpu/deadline_poll.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"

namespace tsp::cpu::bnb {
namespace {

using dpgpu::CounterKind;

struct BnbConfig {
  int root_steps = Options{}.root_steps;
  int node_steps = Options{}.node_steps;
  int starts = Options{}.starts;
  bool eliminate = Options{}.eliminate;
};

// Host bytes: the matrix twice (as given, as doubles) and the stack of nodes, each an n × n
// table of edge decisions and a few n-vectors; the stack holds at most two nodes per level
// and a level decides at least one of the n(n−1)/2 edges (the worst case, far above the usual).
std::uint64_t bnb_bytes(const tsp::Instance& x) {
  const std::uint64_t n = std::uint64_t(x.n), node = n * n + 64 * n;
  return 16 * n * n + (n * (n - 1) + 1) * node;
}

void set_counters(dpgpu::Context& ctx, const Result& r, double seconds) {
  ctx.set("nodes", double(r.nodes));
  ctx.set("bound_evaluations", double(r.evaluations));
  ctx.set("nodes_per_s", seconds > 0 ? double(r.nodes) / seconds : 0.0);
  ctx.set("first_tour", double(r.first_tour));
  ctx.set("eliminated_edges", double(r.eliminated));
  const double gap = r.cost > 0 ? 1.0 - r.root_bound / double(r.cost) : 0.0;
  ctx.set("root_gap", std::clamp(gap, 0.0, 1.0));  // rounding may put the bound a hair above
}

[[maybe_unused]] const auto registered_bnb =
    dpgpu::solver<tsp::Problem, BnbConfig>(
        "cpu.bnb",
        "symmetric TSP, depth-first branch and bound on the Held-Karp 1-tree bound (subgradient "
        "ascent), one thread (paper 000 Fig. 4c's comparator kind)")
        .param("root_steps", &BnbConfig::root_steps, dpgpu::between(1, 1'000'000),
               "subgradient steps (1-trees) at most at the root")
        .param("node_steps", &BnbConfig::node_steps, dpgpu::between(1, 1'000'000),
               "subgradient steps (1-trees) at most at every other node, from its parent's "
               "penalties")
        .param("starts", &BnbConfig::starts, dpgpu::between(0, tsp::kMaxCities),
               "nearest-neighbour starts (each + 2-opt + Or-opt) for the first tour; 0: none, "
               "the search finds its own")
        .param("eliminate", &BnbConfig::eliminate,
               "exclude at the root the edges no tour shorter than the first one can use (reduced "
               "costs against the root's 1-tree)")
        .check_instance([](const BnbConfig&, const tsp::Instance& x) -> std::optional<std::string> {
          auto why = why_not(x);
          return why.empty() ? std::nullopt : std::optional<std::string>(why);
        })
        .counter("nodes", CounterKind::Count, "search nodes bounded, the root included", "nodes")
        .counter("bound_evaluations", CounterKind::Count,
                 "1-trees built (subgradient steps over all nodes)", "1-trees")
        .counter("nodes_per_s", CounterKind::Rate, "nodes per second of the search", "nodes")
        .counter("first_tour", CounterKind::Count,
                 "the heuristic tour's length, the starting upper bound (0: starts 0)", "tour cost")
        .counter("eliminated_edges", CounterKind::Count,
                 "edges excluded at the root by their reduced cost", "edges")
        .counter("root_gap", CounterKind::Ratio, "1 - (root 1-tree bound) / (optimal tour length)")
        .memory([](const tsp::Instance& x, const BnbConfig&) {
          return dpgpu::MemoryNeed{bnb_bytes(x), 0};
        })
        .solve([](const tsp::Instance& x, const BnbConfig& c, dpgpu::Context& ctx) {
          if (auto why = why_not(x); !why.empty()) throw dpgpu::InputError(why);
          const auto start = std::chrono::steady_clock::now();
          Result r;
          {
            auto compute = ctx.phase("compute");
            r = branch_and_bound(x, Options{c.root_steps, c.node_steps, c.starts, c.eliminate},
                                 dpgpu::deadline_of(ctx));
          }
          set_counters(
              ctx, r,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
          return dpgpu::Outcome<tsp::Solution>{r.cost, tsp::Solution{std::move(r.tour)},
                                               std::nullopt};
        });

}  // namespace
}  // namespace tsp::cpu::bnb
