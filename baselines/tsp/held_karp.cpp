// Held-Karp over the whole 2^m × m table (m = n - 1 cities after city 0):
//   cost[{j}][j] = d(0, j)
//   cost[S][j]   = min over k in S \ {j} of cost[S \ {j}][k] + d(k, j)
//   tour cost    = min over j of cost[all][j] + d(j, 0)
// Cells with j not in S are allocated (the table is indexed S·m + j) but never touched.
#include <bit>
#include <limits>
#include <memory>
#include <new>

#include "tsp_cpu.hpp"

namespace tsp::cpu {

namespace {

constexpr int kMaxOthers = 62;  // subsets are 64-bit masks; far beyond any memory anyway

// A saturating product, for byte counts that may not fit.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  return p > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                      : static_cast<std::uint64_t>(p);
}
std::uint64_t plus(std::uint64_t a, std::uint64_t b) { return a + b < a ? std::numeric_limits<std::uint64_t>::max() : a + b; }

// Arcs into each city, by source: into[j·m + k] = d(k+1 → j+1), so the inner loop over
// predecessors k reads one contiguous column.
template <class Cost>
std::vector<Cost> arcs_into(const Instance& x) {
  const int m = x.n - 1;
  std::vector<Cost> into(std::size_t(m) * m);
  for (int j = 0; j < m; ++j)
    for (int k = 0; k < m; ++k) into[std::size_t(j) * m + k] = static_cast<Cost>(x.arc(k + 1, j + 1));
  return into;
}

template <class Cost>
Tour solve(const Instance& x, const Poll& poll) {
  const int m = x.n - 1;
  const std::uint64_t rows = std::uint64_t{1} << m;
  const auto into = arcs_into<Cost>(x);
  // Not value-initialised: only cells with j in S are ever written, and only those are read.
  std::unique_ptr<Cost[]> cost(new Cost[rows * m]);
  std::unique_ptr<std::uint8_t[]> parent(new std::uint8_t[rows * m]);
  for (int j = 0; j < m; ++j) cost[(std::uint64_t{1} << j) * m + j] = static_cast<Cost>(x.arc(0, j + 1));

  Poller poller(poll);
  for (std::uint64_t s = 3; s < rows; ++s) {
    if ((s & (s - 1)) == 0) continue;  // singletons are set above
    Cost* out = &cost[s * m];
    std::uint8_t* from = &parent[s * m];
    for (std::uint64_t js = s; js != 0; js &= js - 1) {
      const int j = std::countr_zero(js);
      const std::uint64_t before = s ^ (std::uint64_t{1} << j);
      const Cost* row = &cost[before * m];
      const Cost* col = &into[std::size_t(j) * m];
      Cost best = std::numeric_limits<Cost>::max();
      int arg = 0;
      for (std::uint64_t ks = before; ks != 0; ks &= ks - 1) {
        const int k = std::countr_zero(ks);
        const Cost c = row[k] + col[k];  // no overflow: cost_upper_bound chose Cost
        if (c < best) best = c, arg = k;
      }
      out[j] = best;
      from[j] = static_cast<std::uint8_t>(arg);
    }
    const auto size = static_cast<std::uint64_t>(std::popcount(s));
    poller.tick(size * size);
  }

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
  const std::uint64_t cells = times(std::uint64_t{1} << m, m);
  return plus(plus(times(cells, cell + 1), m * m * cell), std::uint64_t(x.n) * sizeof(std::int32_t));
}

Tour held_karp(const Instance& x, const Poll& poll) {
  if (x.n == 1) return Tour{0, {0}};
  if (x.n - 1 > kMaxOthers || held_karp_bytes(x) == std::numeric_limits<std::uint64_t>::max()) throw std::bad_alloc();
  return held_karp_cell_bytes(x) == 4 ? solve<std::int32_t>(x, poll) : solve<std::int64_t>(x, poll);
}

}  // namespace tsp::cpu
