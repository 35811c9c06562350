// The paper's knapsack set-up: a fixed number of items, a swept capacity, and every weight
// below 30 % of the capacity (see README.md for how the paper's sentence is read).
#include <stdexcept>

#include <fmt/format.h>

#include "knapsack/draw.hpp"
#include "knapsack/generators.hpp"

namespace knapsack {

std::int64_t paper2014_max_weight(std::int64_t capacity) {
  if (capacity < 4 || capacity > kMaxPaperCapacity)
    throw std::invalid_argument(fmt::format(
        "capacity = {} is outside 4..{} (no weight is below 30 % of a capacity under 4)", capacity,
        kMaxPaperCapacity));
  return (3 * capacity - 1) / 10;  // w < 3C/10  <=>  10w <= 3C - 1
}

Instance paper2014_instance(std::int64_t n, std::int64_t capacity, std::int64_t value_max,
                            std::uint64_t seed) {
  const std::int64_t max_weight = paper2014_max_weight(capacity);
  // Totals stay below 1e7 · 3e11 = 3e18 < 2^63.
  if (n < 0 || n > kMaxPaperItems)
    throw std::invalid_argument(fmt::format("n = {} is outside 0..{}", n, kMaxPaperItems));
  if (value_max > kMaxPaperCapacity)
    throw std::invalid_argument(
        fmt::format("value_max = {} is above {}", value_max, kMaxPaperCapacity));
  const std::int64_t top_value = value_max >= 1 ? value_max : max_weight;

  std::mt19937_64 rng(seed);
  Instance x;
  x.capacity = capacity;
  x.value.resize(static_cast<std::size_t>(n));
  x.weight.resize(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < x.size(); ++j) {
    x.weight[j] = draw_between(rng, 1, max_weight);
    x.value[j] = draw_between(rng, 1, top_value);
  }
  return x;
}

}  // namespace knapsack
