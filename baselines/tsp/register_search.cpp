// The search solvers of the TSP (paper 004's CPU baselines), as the harness sees them.
// Counters: nodes (THE count of tsp/search_bound.hpp), nodes_per_s (over the search
// itself), bound (the starting bound, when finite).
#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cstdint>

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
    "starting bound: optimal (the instance's known optimum; paper protocol, order-independent node count), none, "
    "or a non-negative integer written as text (\"1234\")";

// Parses initial_ub and checks the size before any timing starts.
std::int64_t bound_for(const tsp::Instance& x, const Params& p, const char* solver) {
  if (x.n > tsp::cpu::kMaxSearchCities)
    throw dpgpu::InputError(
        fmt::format("{}: {} cities; the bitset search takes at most {}", solver, x.n, tsp::cpu::kMaxSearchCities));
  return tsp::starting_bound(x, tsp::parse_initial_ub(p.text("initial_ub")));
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
    dpgpu::solver<tsp::Problem>("cpu.dfs",
                                "depth-first implicit enumeration from city 0, one thread, bitset of visited cities, "
                                "pruned by partial cost (paper 004's serial baseline)")
        .param("initial_ub", std::string("optimal"), kInitialUbHelp)
        .memory([](const tsp::Instance& x, const Params&) { return dpgpu::MemoryNeed{search_bytes(x, 0), 0}; })
        .solve([](const tsp::Instance& x, const Params& p, Context& ctx) {
          const auto bound = bound_for(x, p, "cpu.dfs");
          return searched(ctx, "cpu.dfs", bound,
                          [&] { return tsp::cpu::dfs(x, bound, [&ctx] { ctx.check_deadline(); }); });
        });

[[maybe_unused]] const auto registered_omp_dfs =
    dpgpu::solver<tsp::Problem>("cpu.omp_dfs",
                                "cpu.dfs over OpenMP threads: subtrees below a fixed depth as dynamic tasks, shared "
                                "atomic bound")
        .param("initial_ub", std::string("optimal"), kInitialUbHelp)
        .param("threads", std::int64_t{0}, dpgpu::between(0, 1024), "OpenMP threads; 0: OpenMP's default (all cores)")
        .param("split_depth", std::int64_t{tsp::cpu::kDefaultSplitDepth}, dpgpu::between(1, 62),
               "cities fixed after city 0 before subtrees become tasks")
        .memory([](const tsp::Instance& x, const Params& p) {
          return dpgpu::MemoryNeed{search_bytes(x, static_cast<int>(p.integer("split_depth"))), 0};
        })
        .solve([](const tsp::Instance& x, const Params& p, Context& ctx) {
          const auto bound = bound_for(x, p, "cpu.omp_dfs");
          const int threads = static_cast<int>(p.integer("threads"));
          const int split = static_cast<int>(p.integer("split_depth"));
          ctx.set("threads", threads > 0 ? threads : omp_get_max_threads());
          return searched(ctx, "cpu.omp_dfs", bound, [&] {
            return tsp::cpu::omp_dfs(x, bound, threads, split, [&ctx] { ctx.check_deadline(); });
          });
        });

}  // namespace
