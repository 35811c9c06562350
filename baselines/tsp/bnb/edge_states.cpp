// The edge decisions of a cpu.bnb node and their consequences (edge_states.hpp).
#include "edge_states.hpp"

namespace tsp::cpu::bnb {

EdgeStates::EdgeStates(int n)
    : n_(n),
      state_(std::size_t(n) * std::size_t(n), Edge::free),
      included_(std::size_t(n), 0),
      left_(std::size_t(n), n - 1),
      other_end_(std::size_t(n)),
      path_size_(std::size_t(n), 1) {
  for (int v = 0; v < n; ++v) {
    state_[index(v, v)] = Edge::excluded;
    other_end_[v] = v;
  }
}

void EdgeStates::set(int i, int j, Edge e) { state_[index(i, j)] = state_[index(j, i)] = e; }

bool EdgeStates::include(int i, int j) {
  if (!feasible_) return false;
  const Edge s = at(i, j);
  if (s == Edge::included) return true;
  if (s == Edge::excluded || included_[i] == 2 || included_[j] == 2) return feasible_ = false;
  // Both are path ends (fewer than two included edges); the same path's ends close a cycle,
  // a tour only when the path holds every city.
  const bool closes = other_end_[i] == j;
  if (closes && path_size_[i] < n_) return feasible_ = false;
  set(i, j, Edge::included);
  ++included_[i];
  ++included_[j];
  if (!closes) join_paths(i, j);
  if (feasible_ && included_[i] == 2) saturate(i);
  if (feasible_ && included_[j] == 2) saturate(j);
  return feasible_;
}

bool EdgeStates::exclude(int i, int j) {
  if (!feasible_) return false;
  const Edge s = at(i, j);
  if (s == Edge::excluded) return true;
  if (s == Edge::included) return feasible_ = false;
  set(i, j, Edge::excluded);
  --left_[i];
  --left_[j];
  if (left_[i] < 2 || left_[j] < 2) return feasible_ = false;
  if (left_[i] == 2 && included_[i] < 2) force_last_two(i);
  if (feasible_ && left_[j] == 2 && included_[j] < 2) force_last_two(j);
  return feasible_;
}

void EdgeStates::join_paths(int i, int j) {
  const int a = other_end_[i], b = other_end_[j];
  const int size = path_size_[i] + path_size_[j];
  other_end_[a] = b;
  other_end_[b] = a;
  path_size_[a] = path_size_[b] = size;
  if (size == 2) return;  // the path is the edge {i, j} itself
  if (size < n_)
    exclude(a, b);
  else
    include(a, b);
}

void EdgeStates::saturate(int v) {
  for (int u = 0; u < n_ && feasible_; ++u)
    if (at(v, u) == Edge::free) exclude(v, u);
}

void EdgeStates::force_last_two(int v) {
  for (int u = 0; u < n_ && feasible_; ++u)
    if (at(v, u) == Edge::free) include(v, u);
}

}  // namespace tsp::cpu::bnb
