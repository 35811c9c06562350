#include <fmt/format.h>

#include <random>
#include <stdexcept>

#include "draw.hpp"
#include "tsp/generators.hpp"

namespace tsp {

Instance random_matrix(int n, std::int64_t min, std::int64_t max, std::uint64_t seed) {
  if (min < 0 || min > max || max > kMaxWeight)
    throw std::invalid_argument(fmt::format(
        "random_matrix: need 0 <= min <= max <= {}, got min {} and max {}", kMaxWeight, min, max));
  if (n < 1 || n > kMaxCities)
    throw std::invalid_argument(
        fmt::format("random_matrix: n {} must be in [1, {}]", n, kMaxCities));
  std::mt19937_64 rng(seed);
  const auto span = static_cast<std::uint64_t>(max - min) + 1;
  std::vector<std::int64_t> dist(std::size_t(n) * std::size_t(n), 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j)
        dist[std::size_t(i) * n + j] = min + static_cast<std::int64_t>(draw_below(rng, span));
  Instance x = make_instance(n, std::move(dist), "random_matrix");
  x.edge_weight_type = "EXPLICIT";
  return x;
}

}  // namespace tsp
