// Edges excluded by their reduced cost against a 1-tree bound (elimination.hpp).
#include "elimination.hpp"

#include <algorithm>

#include "ascent.hpp"

namespace tsp::cpu::bnb {

namespace {

// dearest[j] for every city j: the dearest penalised edge on the tree path from `from` to j
// (cities 1..n-1; adjacency `next` of the tree without city 0).
void dearest_on_paths(int from, const std::vector<std::vector<std::pair<int, double>>>& next,
                      std::vector<double>& dearest) {
  std::fill(dearest.begin(), dearest.end(), -1.0);
  std::vector<int> stack{from};
  dearest[from] = 0;
  std::vector<char> seen(next.size(), 0);
  seen[from] = 1;
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (const auto& [u, c] : next[v])
      if (!seen[u]) seen[u] = 1, dearest[u] = std::max(dearest[v], c), stack.push_back(u);
  }
}

}  // namespace

int eliminate_edges(const Instance& x, const OneTree& t, const std::vector<double>& pi,
                    double bound, std::int64_t ub, EdgeStates& s) {
  const int n = x.n;
  auto cost = [&](int i, int j) { return double(x.arc(i, j)) + pi[i] + pi[j]; };
  std::vector<std::vector<std::pair<int, double>>> next(static_cast<std::size_t>(n));
  double dearer_at_zero = 0;
  for (const auto& e : t.edges) {
    if (e[0] == 0 || e[1] == 0) {
      dearer_at_zero = std::max(dearer_at_zero, cost(e[0], e[1]));
      continue;
    }
    next[e[0]].push_back({e[1], cost(e[0], e[1])});
    next[e[1]].push_back({e[0], cost(e[0], e[1])});
  }
  int excluded = 0;
  std::vector<double> dearest(static_cast<std::size_t>(n));
  for (int i = 0; i < n && s.feasible(); ++i) {
    if (i > 0) dearest_on_paths(i, next, dearest);
    for (int j = i + 1; j < n && s.feasible(); ++j) {
      if (s.at(i, j) != Edge::free) continue;
      const double replaced = i == 0 ? dearer_at_zero : dearest[j];
      if (cost(i, j) - replaced < 0) continue;  // in the tree (or a tie): nothing to gain
      if (cannot_beat(bound + cost(i, j) - replaced, ub, pi)) s.exclude(i, j), ++excluded;
    }
  }
  return excluded;
}

}  // namespace tsp::cpu::bnb
