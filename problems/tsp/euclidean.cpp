#include <fmt/format.h>

#include <random>
#include <stdexcept>

#include "draw.hpp"
#include "tsp/generators.hpp"
#include "tsplib_distances.hpp"

namespace tsp {

Instance euclidean(int n, std::int64_t side, std::uint64_t seed) {
  if (side < 1 || side > kMaxSide)
    throw std::invalid_argument(
        fmt::format("euclidean: side {} must be in [1, {}]", side, kMaxSide));
  if (n < 1 || n > kMaxCities)
    throw std::invalid_argument(fmt::format("euclidean: n {} must be in [1, {}]", n, kMaxCities));
  std::mt19937_64 rng(seed);
  std::vector<Point> points(static_cast<std::size_t>(n));
  for (auto& p : points) {
    p.x = static_cast<double>(draw_below(rng, static_cast<std::uint64_t>(side)));
    p.y = static_cast<double>(draw_below(rng, static_cast<std::uint64_t>(side)));
  }
  Instance x = make_instance(n, distance_matrix(DistanceType::Euc2d, points), "euclidean");
  x.coords = std::move(points);
  x.edge_weight_type = "EUC_2D";
  return x;
}

}  // namespace tsp
