#include "tsp/reference.hpp"

#include "tsp/held_karp_table.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <numeric>
#include <stdexcept>

namespace tsp {

ReferenceTour brute_force(const Instance& x) {
  if (x.n < 1 || x.n > 11) throw std::invalid_argument("brute_force: n must be in [1, 11]");
  std::vector<std::int32_t> tour(static_cast<std::size_t>(x.n));
  std::iota(tour.begin(), tour.end(), 0);
  ReferenceTour best{tour_cost(x, tour), tour};
  while (std::next_permutation(tour.begin() + 1, tour.end())) {
    const auto cost = tour_cost(x, tour);
    if (cost < best.cost) best = {cost, tour};
  }
  return best;
}

}  // namespace tsp

namespace tsp {

namespace {

// cost[S·m + j]: the cheapest path from city 0 through the cities of S (bits over cities
// 1..m), ending at city j + 1 (j in S); tsp/held_karp_table.hpp fills it.
template <class Cost>
std::int64_t held_karp_table(const Instance& x) {
  const int m = x.n - 1;
  const std::uint64_t rows = std::uint64_t{1} << m;
  std::vector<Cost> cost(rows * m);
  fill_held_karp(x, cost.data(), nullptr, [](std::uint64_t) {});
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for (int j = 0; j < m; ++j)
    best = std::min(best, std::int64_t(cost[(rows - 1) * m + j]) + x.arc(j + 1, 0));
  return best;
}

}  // namespace

std::int64_t held_karp_optimum(const Instance& x) {
  if (x.n < 1 || x.n > kMaxHeldKarpOptimum)
    throw std::invalid_argument("held_karp_optimum: n must be in [1, " +
                                std::to_string(kMaxHeldKarpOptimum) + "]");
  if (x.n == 1) return 0;
  if (x.n == 2) return x.arc(0, 1) + x.arc(1, 0);
  return cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max()
             ? held_karp_table<std::int32_t>(x)
             : held_karp_table<std::int64_t>(x);
}

}  // namespace tsp
