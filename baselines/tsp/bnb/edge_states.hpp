// edge_states.hpp — what a node of cpu.bnb has decided about the edges of a symmetric TSP:
// each edge {i, j} is free, in every tour of the node (included) or in none (excluded).
// Deciding one edge propagates what follows from it, so a node never holds a decision that
// no tour can meet unless it says so (`feasible()` false):
//   - a city with two included edges has all its other edges excluded;
//   - a city with only two edges left (not excluded) has both included;
//   - included edges form paths; the edge joining a path's two ends is excluded while the
//     path has fewer than n cities (it would close a subtour), and included when it has n.
#pragma once
#include <cstdint>
#include <vector>

namespace tsp::cpu::bnb {

enum class Edge : std::uint8_t { free, included, excluded };

class EdgeStates {
 public:
  explicit EdgeStates(int n);

  int n() const { return n_; }
  Edge at(int i, int j) const { return state_[index(i, j)]; }
  int included_degree(int v) const { return included_[v]; }
  bool feasible() const { return feasible_; }

  // Decide a free edge (i != j) and everything that follows; deciding an edge already
  // decided the same way does nothing, the other way makes the node infeasible. Return
  // feasible().
  bool include(int i, int j);
  bool exclude(int i, int j);

 private:
  std::size_t index(int i, int j) const { return std::size_t(i) * std::size_t(n_) + j; }
  void set(int i, int j, Edge e);
  void saturate(int v);        // v has two included edges: exclude its free ones
  void force_last_two(int v);  // v has two edges left: include the free ones
  void join_paths(int i, int j);

  int n_;
  bool feasible_ = true;
  std::vector<Edge> state_;              // n × n, symmetric; the diagonal is excluded
  std::vector<std::int32_t> included_;   // included edges per city (0..2)
  std::vector<std::int32_t> left_;       // edges not excluded per city
  std::vector<std::int32_t> other_end_;  // for a city at a path's end: the path's other end
  std::vector<std::int32_t> path_size_;  // for a city at a path's end: the path's cities
};

}  // namespace tsp::cpu::bnb
