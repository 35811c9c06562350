// Least 1-trees under a node's edge decisions and penalties (one_tree.hpp).
#include "one_tree.hpp"

#include <limits>

namespace tsp::cpu::bnb {

namespace {
constexpr double kNone = std::numeric_limits<double>::infinity();
}

OneTreeBuilder::OneTreeBuilder(const Instance& x)
    : n_(x.n),
      d_(x.dist.begin(), x.dist.end()),
      key_(std::size_t(x.n)),
      from_(std::size_t(x.n)),
      forced_(std::size_t(x.n)),
      in_tree_(std::size_t(x.n)) {}

void OneTreeBuilder::build(const EdgeStates& s, const std::vector<double>& pi, OneTree& out) {
  out.degree.assign(std::size_t(n_), 0);
  out.edges.clear();
  out.spans = spanning_tree(s, pi, out) && edges_at_zero(s, pi, out);
  if (!out.spans) return;
  double length = 0;
  for (const auto& e : out.edges) {
    length += cost(e[0], e[1], pi);
    ++out.degree[e[0]];
    ++out.degree[e[1]];
  }
  for (int v = 0; v < n_; ++v) length -= 2 * pi[v];
  out.length = length;
}

// Prim's over cities 1..n-1. An included edge is preferred to any free one (as if it cost
// −∞): included edges form paths, so the least tree holds them all, and among the trees
// that do, it is the least by cost.
bool OneTreeBuilder::spanning_tree(const EdgeStates& s, const std::vector<double>& pi,
                                   OneTree& out) {
  for (int v = 1; v < n_; ++v) key_[v] = kNone, from_[v] = -1, forced_[v] = 0, in_tree_[v] = 0;
  int v = 1;
  for (int added = 1;; ++added) {
    in_tree_[v] = 1;
    if (added > 1) out.edges.push_back({from_[v], v});
    if (added == n_ - 1) return true;
    int next = -1;
    for (int u = 1; u < n_; ++u) {
      if (in_tree_[u]) continue;
      const Edge e = s.at(v, u);
      if (e == Edge::included && !forced_[u]) {
        forced_[u] = 1, key_[u] = cost(v, u, pi), from_[u] = v;
      } else if (e == Edge::free && !forced_[u]) {
        const double c = cost(v, u, pi);
        if (c < key_[u]) key_[u] = c, from_[u] = v;
      }
      if (from_[u] < 0) continue;
      if (next < 0 || forced_[u] > forced_[next] ||
          (forced_[u] == forced_[next] && key_[u] < key_[next]))
        next = u;
    }
    if (next < 0) return false;  // the excluded edges cut the cities apart
    v = next;
  }
}

// City 0's two edges: its included ones, then the cheapest free ones.
bool OneTreeBuilder::edges_at_zero(const EdgeStates& s, const std::vector<double>& pi,
                                   OneTree& out) {
  int first = -1, second = -1, taken = 0;
  for (int u = 1; u < n_; ++u)
    if (s.at(0, u) == Edge::included) out.edges.push_back({0, u}), ++taken;
  for (int u = 1; u < n_ && taken < 2; ++u) {
    if (s.at(0, u) != Edge::free) continue;
    const double c = cost(0, u, pi);
    if (first < 0 || c < cost(0, first, pi)) {
      second = first, first = u;
    } else if (second < 0 || c < cost(0, second, pi)) {
      second = u;
    }
  }
  if (taken < 2 && first >= 0) out.edges.push_back({0, first}), ++taken;
  if (taken < 2 && second >= 0) out.edges.push_back({0, second}), ++taken;
  return taken == 2;
}

}  // namespace tsp::cpu::bnb
