// The search solvers of the TSP (paper 004's CPU baselines), as the harness sees them.
// Counters: nodes (THE count of tsp/search_bound.hpp), nodes_per_s (over the search
// itself), bound (the starting bound, when finite).
#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "dfs.hpp"
#include "dfs_core.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/search_bound.hpp"

namespace {

using dpgpu::Context;
using dpgpu::Params;
using Outcome = dpgpu::Outcome<tsp::Solution>;

constexpr const char* kInitialUbHelp =
    "starting bound: optimal (the instance's known optimum; paper protocol, order-independent node count; Held-Karp "
    "finds it at planning for a file without one when n <= 22), none, or a non-negative integer written as text "
    "(\"1234\")";

struct DfsConfig {
  std::string initial_ub = "optimal";
};

struct OmpDfsConfig {
  std::string initial_ub = "optimal";
  int threads = 0;
  int split_depth = tsp::cpu::kDefaultSplitDepth;
};

// What every search here declares: initial_ub's forms and startability, n within the bitset
// search's limit (checked by `dpgpu check`), its work as the nodes it counts.
template <class C>
dpgpu::SolverBuilder<tsp::Problem, C> search_solver(const char* name, const char* help) {
  return dpgpu::solver<tsp::Problem, C>(name, help)
      .param("initial_ub", &C::initial_ub, kInitialUbHelp)
      .rule("initial_ub", tsp::initial_ub_rule())
      .check_instance([name](const C& c, const tsp::Instance& x) -> std::optional<std::string> {
        if (x.n > tsp::cpu::kMaxSearchCities)
          return fmt::format("{}: {} cities; the bitset search takes at most {}", name, x.n, tsp::cpu::kMaxSearchCities);
        return tsp::initial_ub_refusal(x, c.initial_ub);
      })
      .needs_optimum([](const C& c) { return tsp::needs_optimum(c.initial_ub); })
      .work_counter("nodes");
}

std::int64_t bound_for(const tsp::Instance& x, const std::string& initial_ub) {
  return tsp::starting_bound(x, tsp::parse_initial_ub(initial_ub));
}

// Host bytes: the matrix copy and one frame per city; omp_dfs adds its task list, at most
// (n-1)(n-2)...(n-split) paths of split + 1 frames (before pruning; saturating).
std::uint64_t search_bytes(const tsp::Instance& x, int split) {
  const std::uint64_t n = std::uint64_t(x.n), frame = sizeof(tsp::cpu::detail::Frame);
  std::uint64_t bytes = n * n * sizeof(std::int64_t) + n * frame, tasks = 1;
  for (int k = 1; k <= split && k < x.n; ++k) {
    tasks *= n - std::uint64_t(k);
    if (tasks > (std::uint64_t{1} << 40)) return UINT64_MAX;
  }
  return split > 0 ? bytes + tasks * (std::uint64_t(split) + 1) * frame : bytes;
}

template <class Search>
Outcome searched(Context& ctx, const char* solver, std::int64_t bound, Search&& search) {
  if (bound != tsp::kNoBound) ctx.set("bound", double(bound));
  tsp::cpu::SearchResult r;
  const auto start = std::chrono::steady_clock::now();
  {
    auto compute = ctx.phase("compute");
    r = search();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ctx.set("nodes", double(r.nodes));
  ctx.set("nodes_per_s", seconds > 0 ? double(r.nodes) / seconds : 0.0);
  if (r.tour.empty())
    throw dpgpu::InputError(fmt::format("{}: initial_ub {} is below every tour's cost: no tour found ({} nodes)",
                                        solver, bound, r.nodes));
  return Outcome{r.cost, tsp::Solution{std::move(r.tour)}, std::nullopt};
}

[[maybe_unused]] const auto registered_dfs =
    search_solver<DfsConfig>("cpu.dfs",
                             "depth-first implicit enumeration from city 0, one thread, bitset of visited cities, "
                             "pruned by partial cost (paper 004's serial baseline)")
        .memory([](const tsp::Instance& x, const DfsConfig&) { return dpgpu::MemoryNeed{search_bytes(x, 0), 0}; })
        .solve([](const tsp::Instance& x, const DfsConfig& c, Context& ctx) {
          const auto bound = bound_for(x, c.initial_ub);
          return searched(ctx, "cpu.dfs", bound,
                          [&] { return tsp::cpu::dfs(x, bound, [&ctx] { ctx.check_deadline(); }); });
        });

[[maybe_unused]] const auto registered_omp_dfs =
    search_solver<OmpDfsConfig>("cpu.omp_dfs",
                                "cpu.dfs over OpenMP threads: subtrees below a fixed depth as dynamic tasks, shared "
                                "atomic bound")
        .param("threads", &OmpDfsConfig::threads, dpgpu::between(0, 1024), "OpenMP threads; 0: OpenMP's default (all cores)")
        .param("split_depth", &OmpDfsConfig::split_depth, dpgpu::between(1, 62),
               "cities fixed after city 0 before subtrees become tasks")
        .memory([](const tsp::Instance& x, const OmpDfsConfig& c) {
          return dpgpu::MemoryNeed{search_bytes(x, c.split_depth), 0};
        })
        .solve([](const tsp::Instance& x, const OmpDfsConfig& c, Context& ctx) {
          const auto bound = bound_for(x, c.initial_ub);
          ctx.set("threads", c.threads > 0 ? c.threads : omp_get_max_threads());
          return searched(ctx, "cpu.omp_dfs", bound, [&] {
            return tsp::cpu::omp_dfs(x, bound, c.threads, c.split_depth, [&ctx] { ctx.check_deadline(); });
          });
        });

}  // namespace
