// coin (atsp_classes.hpp): pay phones on a grid of alternating one-way streets.
#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "draw.hpp"
#include "tsp/atsp_classes.hpp"

namespace tsp {

namespace {

// Neighbours of intersection (x, y) reachable in one block, by the street rules.
template <class Visit>
void each_move(int g, int every, bool ring, int x, int y, Visit&& visit) {
  auto two_way = [&](int street) {
    return (every > 0 && street % every == 0) || (ring && (street == 0 || street == g - 1));
  };
  // East-west street y: east when y is even.
  const bool east = y % 2 == 0, ew_both = two_way(y);
  if (x + 1 < g && (east || ew_both)) visit(x + 1, y);
  if (x > 0 && (!east || ew_both)) visit(x - 1, y);
  // North-south street x: north (y + 1) when x is odd, so the first block turns anticlockwise.
  const bool north = x % 2 == 1, ns_both = two_way(x);
  if (y + 1 < g && (north || ns_both)) visit(x, y + 1);
  if (y > 0 && (!north || ns_both)) visit(x, y - 1);
}

// Blocks driven from `from` to every intersection (-1: unreachable).
std::vector<int> blocks_from(int g, int every, bool ring, int from) {
  std::vector<int> steps(std::size_t(g) * g, -1), queue{from};
  steps[std::size_t(from)] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int at = queue[head];
    each_move(g, every, ring, at % g, at / g, [&](int x, int y) {
      const int to = y * g + x;
      if (steps[std::size_t(to)] < 0)
        steps[std::size_t(to)] = steps[std::size_t(at)] + 1, queue.push_back(to);
    });
  }
  return steps;
}

}  // namespace

int coin_grid(int n, const CoinShape& shape) {
  if (shape.grid > 0) return shape.grid;
  int g = 2;
  while (std::int64_t(g) * g < 4 * std::int64_t(n)) ++g;
  return g;
}

Instance coin(int n, const CoinShape& shape, std::uint64_t seed) {
  if (n < 1 || n > kMaxCities)
    throw std::invalid_argument(fmt::format("coin: n {} must be in [1, {}]", n, kMaxCities));
  const int g = coin_grid(n, shape);
  if (g < 2 || g > 1000)
    throw std::invalid_argument(fmt::format("coin: grid {} must be in [2, 1000]", g));
  if (std::int64_t(g) * g < n)
    throw std::invalid_argument(
        fmt::format("coin: a {}x{} grid has fewer intersections than {} phones", g, g, n));
  if (shape.block < 1 || shape.block > 1'000'000)
    throw std::invalid_argument(fmt::format("coin: block {} must be in [1, 10^6]", shape.block));
  if (shape.two_way_every < 0) throw std::invalid_argument("coin: two_way_every must be >= 0");

  std::mt19937_64 rng(seed);
  std::vector<int> phones;
  std::vector<bool> taken(std::size_t(g) * g, false);
  while (int(phones.size()) < n) {
    const auto at = static_cast<int>(draw_below(rng, std::uint64_t(g) * std::uint64_t(g)));
    if (taken[std::size_t(at)]) continue;
    taken[std::size_t(at)] = true;
    phones.push_back(at);
  }
  std::vector<std::int64_t> dist(std::size_t(n) * std::size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    const auto steps = blocks_from(g, shape.two_way_every, shape.ring, phones[std::size_t(i)]);
    for (int j = 0; j < n; ++j) {
      const int s = steps[std::size_t(phones[std::size_t(j)])];
      if (s < 0)  // possible without the two-way ring: a corner can be a dead end
        throw std::invalid_argument(
            fmt::format("coin: phone {} cannot be reached from phone {} on this grid; set ring: "
                        "true or two_way_every",
                        j, i));
      if (i != j) dist[std::size_t(i) * n + j] = std::int64_t(s) * shape.block;
    }
  }
  Instance x = make_instance(n, std::move(dist), "coin");
  x.edge_weight_type = "EXPLICIT";
  return x;
}

}  // namespace tsp
