// one_tree.hpp — the Held-Karp 1-tree bound of a cpu.bnb node: with node penalties π, an
// edge {i, j} costs d(i, j) + π_i + π_j; a 1-tree is a spanning tree of cities 1..n-1 plus two
// edges at city 0; every tour is a 1-tree, and every tour's length equals its penalised
// length − 2·Σπ, so the least 1-tree
//   L(π) = min over 1-trees T of Σ_{ij ∈ T} (d_ij + π_i + π_j) − 2·Σ π
// bounds every tour of the node from below. Included edges are in the tree, excluded ones
// never (edge_states.hpp). A 1-tree whose cities all have degree 2 is a tour.
#pragma once
#include <array>
#include <vector>

#include "edge_states.hpp"
#include "tsp/tsp.hpp"

namespace tsp::cpu::bnb {

struct OneTree {
  bool spans = false;  // false: the node's excluded edges leave no 1-tree (and no tour)
  double length = 0;   // L(π)
  std::vector<std::int32_t> degree;                // per city
  std::vector<std::array<std::int32_t, 2>> edges;  // n edges: the tree's n − 2, then city 0's two
};

// Builds least 1-trees of one symmetric instance, keeping its buffers between calls.
class OneTreeBuilder {
 public:
  explicit OneTreeBuilder(const Instance& x);
  // The least 1-tree under `s` and penalties `pi` (n values); O(n²) (Prim's, dense).
  void build(const EdgeStates& s, const std::vector<double>& pi, OneTree& out);

 private:
  double cost(int i, int j, const std::vector<double>& pi) const {
    return d_[std::size_t(i) * std::size_t(n_) + j] + pi[i] + pi[j];
  }
  bool spanning_tree(const EdgeStates& s, const std::vector<double>& pi, OneTree& out);
  bool edges_at_zero(const EdgeStates& s, const std::vector<double>& pi, OneTree& out);

  int n_;
  std::vector<double> d_;  // the matrix as doubles
  std::vector<double> key_;
  std::vector<std::int32_t> from_;
  std::vector<char> forced_, in_tree_;
};

}  // namespace tsp::cpu::bnb
