#include "knapsack/reference.hpp"

#include <stdexcept>
#include <string>

namespace knapsack {

std::int64_t brute_force_optimum(const Instance& x) {
  const std::size_t n = x.size();
  if (n > 24)
    throw std::invalid_argument("brute_force_optimum: " + std::to_string(n) + " items; at most 24");
  std::int64_t best = 0;
  for (std::uint32_t subset = 0; subset < (std::uint32_t{1} << n); ++subset) {
    std::int64_t value = 0, weight = 0;
    for (std::size_t j = 0; j < n; ++j)
      if (subset >> j & 1) value += x.value[j], weight += x.weight[j];
    if (weight <= x.capacity && value > best) best = value;
  }
  return best;
}

}  // namespace knapsack
