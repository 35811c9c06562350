// Held-Karp over the whole 2^m × m table (m = n - 1 cities after city 0; the DP is
// tsp/held_karp_table.hpp, shared with the reference optimum), then
//   tour cost    = min over j of cost[all][j] + d(j, 0)
// and the tour from the stored predecessors.
#include <bit>
#include <limits>
#include <memory>
#include <new>

#include "dpgpu/saturating.hpp"
#include "tsp/held_karp_table.hpp"
#include "tsp_cpu.hpp"

namespace tsp::cpu {

namespace {

constexpr int kMaxOthers = 62;  // subsets are 64-bit masks; far beyond any memory anyway

template <class Cost>
Tour solve(const Instance& x, const Poll& poll) {
  const int m = x.n - 1;
  const std::uint64_t rows = std::uint64_t{1} << m;
  // Not value-initialised: only cells with j in S are ever written, and only those are read.
  std::unique_ptr<Cost[]> cost(new Cost[rows * m]);
  std::unique_ptr<std::uint8_t[]> parent(new std::uint8_t[rows * m]);
  Poller poller(poll);
  fill_held_karp(x, cost.get(), parent.get(), [&](std::uint64_t s) {
    const auto size = static_cast<std::uint64_t>(std::popcount(s));
    poller.tick(size * size);
  });

  // Close the tour, then walk the predecessors back from the full set.
  std::uint64_t s = rows - 1;
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  int last = 0;
  for (int j = 0; j < m; ++j) {
    const std::int64_t c = std::int64_t(cost[s * m + j]) + x.arc(j + 1, 0);
    if (c < best) best = c, last = j;
  }
  Tour t{best, std::vector<std::int32_t>(static_cast<std::size_t>(x.n))};
  t.tour[0] = 0;
  for (int position = m; position >= 1; --position) {
    t.tour[static_cast<std::size_t>(position)] = last + 1;
    if (position == 1) break;  // a singleton: its predecessor is city 0
    const int before = parent[s * m + last];
    s ^= std::uint64_t{1} << last;
    last = before;
  }
  return t;
}

}  // namespace

std::size_t held_karp_cell_bytes(const Instance& x) {
  return cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max() ? 4 : 8;
}

std::uint64_t held_karp_bytes(const Instance& x) {
  const std::uint64_t m = x.n > 1 ? std::uint64_t(x.n - 1) : 0;
  if (m > kMaxOthers) return std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t cell = held_karp_cell_bytes(x);
  using dpgpu::saturating_add, dpgpu::saturating_mul;
  const std::uint64_t cells = saturating_mul(std::uint64_t{1} << m, m);
  return saturating_add(saturating_add(saturating_mul(cells, cell + 1), m * m * cell),
                        std::uint64_t(x.n) * sizeof(std::int32_t));
}

Tour held_karp(const Instance& x, const Poll& poll) {
  if (x.n == 1) return Tour{0, {0}};
  if (x.n - 1 > kMaxOthers || held_karp_bytes(x) == std::numeric_limits<std::uint64_t>::max())
    throw std::bad_alloc();
  return held_karp_cell_bytes(x) == 4 ? solve<std::int32_t>(x, poll) : solve<std::int64_t>(x, poll);
}

}  // namespace tsp::cpu
