// Building and inspecting distance matrices: the checks every maker shares.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "tsp/tsp.hpp"

namespace tsp {

bool is_symmetric(int n, const std::vector<std::int64_t>& dist) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (dist[std::size_t(i) * n + j] != dist[std::size_t(j) * n + i]) return false;
  return true;
}

Instance make_instance(int n, std::vector<std::int64_t> dist, std::string name) {
  if (n < 1 || n > kMaxCities)
    throw std::invalid_argument(fmt::format("tsp: {} cities; must be in [1, {}]", n, kMaxCities));
  if (dist.size() != std::size_t(n) * std::size_t(n))
    throw std::invalid_argument(
        fmt::format("tsp: distance matrix has {} entries, {} cities need {}", dist.size(), n,
                    std::size_t(n) * n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const auto w = dist[std::size_t(i) * n + j];
      const auto lowest = i == j ? -kMaxWeight : 0;
      if (w < lowest || w > kMaxWeight)
        throw std::invalid_argument(fmt::format("tsp: arc {}->{} costs {}; must be in [{}, {}]", i,
                                                j, w, lowest, kMaxWeight));
    }
  Instance x;
  x.n = n;
  x.symmetric = is_symmetric(n, dist);
  x.dist = std::move(dist);
  x.name = std::move(name);
  return x;
}

std::int64_t cost_upper_bound(const Instance& x) {
  std::int64_t total = 0;
  for (int i = 0; i < x.n; ++i) {
    std::int64_t most = 0;
    for (int j = 0; j < x.n; ++j)
      if (j != i) most = std::max(most, x.arc(i, j));
    total += most;
  }
  return total;
}

std::int64_t tour_cost(const Instance& x, const std::vector<std::int32_t>& tour) {
  if (tour.size() < 2) return 0;
  std::int64_t total = 0;
  for (std::size_t k = 0; k + 1 < tour.size(); ++k) total += x.arc(tour[k], tour[k + 1]);
  return total + x.arc(tour.back(), tour.front());
}

}  // namespace tsp
