// amat, tmat, tsmat (atsp_classes.hpp): random matrices and their shortest-path closures.
#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "draw.hpp"
#include "tsp/atsp_classes.hpp"

namespace tsp {

namespace {

void check_range(const char* what, int n, std::int64_t min, std::int64_t max) {
  if (min < 0 || min > max || max > kMaxWeight)
    throw std::invalid_argument(fmt::format("{}: need 0 <= min <= max <= {}, got min {} and max {}",
                                            what, kMaxWeight, min, max));
  if (n < 1 || n > kMaxCities)
    throw std::invalid_argument(fmt::format("{}: n {} must be in [1, {}]", what, n, kMaxCities));
}

std::vector<std::int64_t> drawn_matrix(int n, std::int64_t min, std::int64_t max,
                                       std::uint64_t seed, bool mirror) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> dist(std::size_t(n) * std::size_t(n), 0);
  for (int i = 0; i < n; ++i)
    for (int j = mirror ? i + 1 : 0; j < n; ++j) {
      if (i == j) continue;
      const auto w = draw_between(rng, min, max);
      dist[std::size_t(i) * n + j] = w;
      if (mirror) dist[std::size_t(j) * n + i] = w;
    }
  return dist;
}

Instance made(int n, std::vector<std::int64_t> dist, const char* name) {
  Instance x = make_instance(n, std::move(dist), name);
  x.edge_weight_type = "EXPLICIT";
  return x;
}

}  // namespace

void close_under_shortest_paths(int n, std::vector<std::int64_t>& dist) {
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) {
      const std::int64_t ik = dist[std::size_t(i) * n + k];
      std::int64_t* row = &dist[std::size_t(i) * n];
      const std::int64_t* via = &dist[std::size_t(k) * n];
      for (int j = 0; j < n; ++j)
        if (i != j) row[j] = std::min(row[j], ik + via[j]);
    }
}

Instance amat(int n, std::int64_t min, std::int64_t max, std::uint64_t seed) {
  check_range("amat", n, min, max);
  return made(n, drawn_matrix(n, min, max, seed, false), "amat");
}

Instance tmat(int n, std::int64_t min, std::int64_t max, std::uint64_t seed) {
  check_range("tmat", n, min, max);
  auto dist = drawn_matrix(n, min, max, seed, false);
  close_under_shortest_paths(n, dist);
  return made(n, std::move(dist), "tmat");
}

Instance tsmat(int n, std::int64_t min, std::int64_t max, std::uint64_t seed) {
  check_range("tsmat", n, min, max);
  auto dist = drawn_matrix(n, min, max, seed, true);
  close_under_shortest_paths(n, dist);
  return made(n, std::move(dist), "tsmat");
}

}  // namespace tsp
