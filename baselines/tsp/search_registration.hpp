// search_registration.hpp — what the registrations of the searches (cpu.dfs, cpu.omp_dfs; each
// in its own <algorithm>_params.cpp) share: initial_ub's forms and rules, the memory bound, and
// the counters nodes (THE count of tsp/search_bound.hpp), nodes_per_s (over the search
// itself) and bound (the starting bound, when finite).
#pragma once
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "dfs.hpp"
#include "dfs_core.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/search_bound.hpp"

namespace tsp::cpu {

using Outcome = dpgpu::Outcome<tsp::Solution>;

inline constexpr const char* kInitialUbHelp =
    "starting bound: optimal (the instance's known optimum; paper protocol, order-independent node "
    "count; Held-Karp "
    "finds it at planning for a file without one when n <= 22), none, or a non-negative integer "
    "written as text "
    "(\"1234\")";

// What every search here declares: initial_ub's forms and startability, n within the bitset
// search's limit (checked by `dpgpu check`), its work as the nodes it counts.
template <class C>
dpgpu::SolverBuilder<tsp::Problem, C> search_solver(const char* name, const char* help) {
  return dpgpu::solver<tsp::Problem, C>(name, help)
      .param("initial_ub", &C::initial_ub, kInitialUbHelp)
      .rule("initial_ub", tsp::initial_ub_rule())
      .check_instance([name](const C& c, const tsp::Instance& x) -> std::optional<std::string> {
        if (x.n > tsp::cpu::kMaxSearchCities)
          return fmt::format("{}: {} cities; the bitset search takes at most {}", name, x.n,
                             tsp::cpu::kMaxSearchCities);
        return tsp::initial_ub_refusal(x, c.initial_ub);
      })
      .needs_optimum([](const C& c) { return tsp::needs_optimum(c.initial_ub); })
      .counter("nodes", dpgpu::CounterKind::Count,
               "search nodes visited (THE count of tsp/search_bound.hpp)", "nodes")
      .counter("nodes_per_s", dpgpu::CounterKind::Rate, "nodes per second of the search itself",
               "nodes")
      .counter("bound", dpgpu::CounterKind::Count, "the starting bound, when finite", "tour cost")
      .work_counter("nodes");
}

inline std::int64_t bound_for(const tsp::Instance& x, const std::string& initial_ub) {
  return tsp::starting_bound(x, tsp::parse_initial_ub(initial_ub));
}

// Host bytes: the matrix copy and one frame per city; omp_dfs adds its task list, at most
// (n-1)(n-2)...(n-split) paths of split + 1 frames (before pruning; saturating).
inline std::uint64_t search_bytes(const tsp::Instance& x, int split) {
  const std::uint64_t n = std::uint64_t(x.n), frame = sizeof(tsp::cpu::detail::Frame);
  std::uint64_t bytes = n * n * sizeof(std::int64_t) + n * frame, tasks = 1;
  for (int k = 1; k <= split && k < x.n; ++k) {
    tasks *= n - std::uint64_t(k);
    if (tasks > (std::uint64_t{1} << 40)) return UINT64_MAX;
  }
  return split > 0 ? bytes + tasks * (std::uint64_t(split) + 1) * frame : bytes;
}

template <class Search>
Outcome searched(dpgpu::Context& ctx, const char* solver, std::int64_t bound, Search&& search) {
  if (bound != tsp::kNoBound) ctx.set("bound", double(bound));
  tsp::cpu::SearchResult r;
  const auto start = std::chrono::steady_clock::now();
  {
    auto compute = ctx.phase("compute");
    r = search();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ctx.set("nodes", double(r.nodes));
  ctx.set("nodes_per_s", seconds > 0 ? double(r.nodes) / seconds : 0.0);
  if (r.tour.empty())
    throw dpgpu::InputError(
        fmt::format("{}: initial_ub {} is below every tour's cost: no tour found ({} nodes)",
                    solver, bound, r.nodes));
  return Outcome{r.cost, tsp::Solution{std::move(r.tour)}, std::nullopt};
}

}  // namespace tsp::cpu
