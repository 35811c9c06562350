// cpu.dfs: the serial search of dfs.hpp around the loop of dfs_core.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "dfs.hpp"
#include "dfs_core.hpp"

namespace tsp::cpu {

namespace detail {

Arcs arcs_of(const Instance& x) {
  if (x.n > kMaxSearchCities)
    throw std::invalid_argument(fmt::format(
        "bitset search: {} cities; at most {} (one 64-bit mask)", x.n, kMaxSearchCities));
  return Arcs{x.n, x.dist};
}

// The root (city 0 alone, cost 0): counted when 0 < bound. With one city it is also the
// only tour (cost 0). Fills frames[0]; returns false when nothing below it is searched.
bool root(const Instance& x, std::int64_t bound, Frame* frames, SearchResult& r) {
  r = SearchResult{};
  if (0 < bound) r.nodes = 1;
  if (x.n == 1) {
    if (0 <= bound) r.cost = 0, r.tour = {0};
    return false;
  }
  if (!(0 < bound)) return false;
  const std::uint64_t all = x.n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << x.n) - 1;
  frames[0] = Frame{all & ~std::uint64_t{1}, all & ~std::uint64_t{1}, 0, 0};
  return true;
}

}  // namespace detail

namespace {

using detail::Frame;

struct SerialBound {
  std::int64_t in_force;
  SearchResult* result;
  std::int64_t bound() const { return in_force; }
  void offer(std::int64_t tour, const Frame* frames, int last_index, int last_city) {
    if (tour >= result->cost) return;
    result->cost = tour;
    result->tour = detail::tour_of(frames, last_index, last_city);
    in_force = std::min(in_force, tour);
  }
};

}  // namespace

SearchResult dfs(const Instance& x, std::int64_t bound, const Poll& poll) {
  const detail::Arcs arcs = detail::arcs_of(x);
  std::vector<Frame> frames(static_cast<std::size_t>(x.n));
  SearchResult r;
  if (!detail::root(x, bound, frames.data(), r)) return r;
  SerialBound policy{bound, &r};
  r.nodes += detail::explore(
      arcs, frames.data(), 0, x.n, policy, [](const Frame*, int) {},
      [&] {
        if (poll) poll();
      });
  return r;
}

}  // namespace tsp::cpu
