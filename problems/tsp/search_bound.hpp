// search_bound.hpp — the bound a tree search over ATSP tours starts from (`initial_ub`), and
// THE node-counting rule every search solver of the tsp problem follows (cpu.dfs,
// cpu.omp_dfs, gpu.bpdfs, gpu.ivm), so that their `nodes` columns can be compared.
//
// The rule (issue 6; paper 004, Sect. 4.1: "the nodes visited are exactly those nodes who
// have a partial cost lower than the optimal solution"):
//   - A node is a path that starts at city 0 and visits distinct cities. The root is city 0
//     alone, with cost 0; the deepest nodes are the full permutations (n cities).
//   - A node's cost is the sum of the arcs along its path, WITHOUT the return arc to city 0.
//   - A node COUNTS (and is expanded, if it is not a full permutation) when its cost is
//     strictly below the bound in force. Its children are the paths one city longer; a child
//     of a node that does not count is never generated.
//   - Every full permutation whose (n-1)-city parent counted is examined as a tour (the root
//     itself when n = 1): when its closed-tour cost (return arc included) is <= the bound in
//     force and strictly below the cost of the tour held, it becomes the held tour, and the
//     bound in force becomes min(bound, that cost).
// With the optimal bound the bound never changes, so the counted set is exactly the paths
// whose cost is below the optimum (arcs are >= 0, so every prefix of such a path is too):
// the count is the same in any order and on any number of workers, and an optimal tour is
// still returned. With a looser bound the count depends on the order in which tours are met.
//
// Deviations, and why:
//   - The tour examination does not require the full permutation itself to count. They
//     differ only when a tour's return arc costs 0 and its path costs exactly the bound; the
//     paper's kernel (which only looks at counted nodes) would then miss an optimal tour with
//     the optimal bound. Counting is unaffected.
//   - The paper's Sect. 3 says nodes "greater than the best solution" are eliminated (ties
//     kept); its Sect. 4.1 and the issue say nodes "lower than" the optimum are visited. We
//     follow Sect. 4.1 and the issue: ties are pruned.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "dpgpu/params.hpp"

#include "tsp/tsp.hpp"

namespace tsp {

// No bound: every path counts until the first tour is held.
inline constexpr std::int64_t kNoBound = std::numeric_limits<std::int64_t>::max();

struct InitialBound {
  enum class Kind { Optimal, None, Value } kind = Kind::None;
  std::int64_t value = 0;  // Kind::Value only
};

// "optimal", "none", or a non-negative decimal integer (in an experiment file, quote it:
// initial_ub: "1234", as the parameter is text). Throws dpgpu::InputError naming
// initial_ub and the allowed forms.
InitialBound parse_initial_ub(const std::string& text);

// The bound a search starts from: Optimal → *x.optimum (dpgpu::InputError when the
// instance has none, saying how to get one); None → kNoBound; Value → the value.
std::int64_t starting_bound(const Instance& x, const InitialBound& b);

// What every search solver declares for its initial_ub parameter (one source of truth):
// its forms as a parameter rule; whether it asks the planner for the instance's optimum
// (Problem::reference_optimum finds one by Held-Karp for n <= kDefaultOptimumMaxN where the
// file has none); and why it cannot start on x (no optimum to be had, a value below the
// known optimum), checked by `dpgpu check`.
dpgpu::ParamRule initial_ub_rule();
bool needs_optimum(const std::string& initial_ub);
std::optional<std::string> initial_ub_refusal(const Instance& x, const std::string& initial_ub);

}  // namespace tsp
