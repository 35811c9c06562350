#include "tsp/reference.hpp"

#include <algorithm>
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
