// cpu.bnb's first tour (upper_bound.hpp).
#include "upper_bound.hpp"

#include <algorithm>

namespace tsp::cpu::bnb {

namespace {

std::vector<std::int32_t> nearest_neighbour(const Instance& x, int start) {
  std::vector<char> seen(std::size_t(x.n), 0);
  std::vector<std::int32_t> tour{start};
  seen[start] = 1;
  for (int at = start; int(tour.size()) < x.n;) {
    int next = -1;
    for (int u = 0; u < x.n; ++u)
      if (!seen[u] && (next < 0 || x.arc(at, u) < x.arc(at, next))) next = u;
    seen[next] = 1;
    tour.push_back(next);
    at = next;
  }
  return tour;
}

// The tour turned so that it starts at city 0.
std::vector<std::int32_t> from_zero(std::vector<std::int32_t> tour) {
  std::rotate(tour.begin(), std::find(tour.begin(), tour.end(), 0), tour.end());
  return tour;
}

// Or-opt for the segment at the tour's first `len` positions: the best place for it among the
// rest (a path from tour[len] to tour[n-1]), either way round; true when moved.
bool move_first_segment(const Instance& x, std::vector<std::int32_t>& tour, int len) {
  const int n = x.n;
  const int s0 = tour[0], s1 = tour[std::size_t(len) - 1], p = tour[std::size_t(n) - 1],
            q = tour[std::size_t(len)];
  const std::int64_t removed = x.arc(p, s0) + x.arc(s1, q) - x.arc(p, q);
  std::int64_t best = 0;
  int at = -1;
  bool reversed = false;
  for (int k = len; k + 1 < n; ++k) {
    const int c = tour[std::size_t(k)], e = tour[std::size_t(k) + 1];
    const std::int64_t forward = x.arc(c, s0) + x.arc(s1, e) - x.arc(c, e) - removed;
    const std::int64_t backward = x.arc(c, s1) + x.arc(s0, e) - x.arc(c, e) - removed;
    if (std::min(forward, backward) < best)
      best = std::min(forward, backward), at = k, reversed = backward < forward;
  }
  if (at < 0) return false;
  std::vector<std::int32_t> moved(tour.begin() + len, tour.begin() + at + 1);
  if (reversed)
    moved.insert(moved.end(), tour.rend() - len, tour.rend());
  else
    moved.insert(moved.end(), tour.begin(), tour.begin() + len);
  moved.insert(moved.end(), tour.begin() + at + 1, tour.end());
  tour = std::move(moved);
  return true;
}

}  // namespace

bool two_opt_pass(const Instance& x, std::vector<std::int32_t>& tour) {
  const int n = x.n;
  bool better = false;
  for (int i = 0; i + 2 < n; ++i)
    for (int j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // the two edges meet at tour[0]
      const int a = tour[i], b = tour[i + 1], c = tour[j], d = tour[(j + 1) % n];
      if (x.arc(a, c) + x.arc(b, d) < x.arc(a, b) + x.arc(c, d)) {
        std::reverse(tour.begin() + i + 1, tour.begin() + j + 1);
        better = true;
      }
    }
  return better;
}

bool or_opt_pass(const Instance& x, std::vector<std::int32_t>& tour) {
  bool better = false;
  for (int len = 1; len <= 3 && len + 2 < x.n; ++len)
    for (int i = 0; i < x.n; ++i) {
      std::rotate(tour.begin(), tour.begin() + 1, tour.end());
      better = move_first_segment(x, tour, len) || better;
    }
  tour = from_zero(std::move(tour));
  return better;
}

HeuristicTour heuristic_tour(const Instance& x, int starts, const dpgpu::Poll& poll) {
  HeuristicTour best;
  const int count = std::max(1, std::min(starts, x.n));
  for (int k = 0; k < count; ++k) {
    auto tour = nearest_neighbour(x, int(std::int64_t(k) * x.n / count));
    while (two_opt_pass(x, tour) || or_opt_pass(x, tour))
      if (poll) poll();
    tour = from_zero(std::move(tour));
    const std::int64_t cost = tsp::tour_cost(x, tour);
    if (best.tour.empty() || cost < best.cost) best = {cost, std::move(tour)};
  }
  return best;
}

}  // namespace tsp::cpu::bnb
