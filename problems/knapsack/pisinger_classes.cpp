// Pisinger's four classic classes: weights uniform in [1, R], values tied to them by class.
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "knapsack/draw.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/well_formed.hpp"

namespace knapsack {

const char* to_string(PisingerClass c) {
  switch (c) {
    case PisingerClass::uncorrelated: return "uncorrelated";
    case PisingerClass::weakly_correlated: return "weakly_correlated";
    case PisingerClass::strongly_correlated: return "strongly_correlated";
    case PisingerClass::subset_sum: return "subset_sum";
  }
  return "?";
}

namespace {

std::int64_t draw_value(PisingerClass c, std::int64_t weight, std::int64_t range,
                        std::mt19937_64& rng) {
  const std::int64_t tenth = range / 10;
  switch (c) {
    case PisingerClass::uncorrelated: return draw_between(rng, 1, range);
    // Drawing from the clipped interval is the same law as redrawing until value >= 1.
    case PisingerClass::weakly_correlated:
      return draw_between(rng, std::max<std::int64_t>(1, weight - tenth), weight + tenth);
    case PisingerClass::strongly_correlated: return weight + tenth;
    case PisingerClass::subset_sum: return weight;
  }
  return 0;
}

}  // namespace

Instance pisinger_instance(PisingerClass c, std::int64_t n, std::int64_t range,
                           std::int64_t capacity, double capacity_fraction, std::uint64_t seed) {
  if (n < 0 || n > kMaxItems)
    throw std::invalid_argument(fmt::format("n = {} is outside 0..{}", n, kMaxItems));
  if (range < 1 || range > kMaxRange)
    throw std::invalid_argument(fmt::format("R = {} is outside 1..{}", range, kMaxRange));
  if (capacity < 0 && !(capacity_fraction >= 0 && capacity_fraction <= 1))
    throw std::invalid_argument(
        fmt::format("capacity_fraction = {} is outside [0, 1]", capacity_fraction));

  std::mt19937_64 rng(seed);
  Instance x;
  x.value.resize(static_cast<std::size_t>(n));
  x.weight.resize(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < x.size(); ++j) {
    x.weight[j] = draw_between(rng, 1, range);
    x.value[j] = draw_value(c, x.weight[j], range, rng);
  }
  // Below the limits every total is at most 2^31 · 1.1e9 < 2^63.
  const std::int64_t total_weight = *checked_sum(x.weight);
  x.capacity =
      capacity >= 0
          ? capacity
          : static_cast<std::int64_t>(std::floor(capacity_fraction * double(total_weight)));
  return x;
}

}  // namespace knapsack
