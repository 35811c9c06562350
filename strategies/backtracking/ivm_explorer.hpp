// ivm_explorer.hpp — one Integer-Vector-Matrix explorer of gpu.ivm (paper 004, Sect. 3.1):
// the integer (depth k), the vector (one factoradic digit per depth: which child of the node
// at that depth is next), the matrix (row j: the cities still free below depth j, in
// increasing order; a descent copies the row without the chosen city). The same code runs in
// the TreeExplore kernel and, on the CPU, in the tests.
//
// Counting (problems/tsp/search_bound.hpp): a node counts when its path cost (no return arc)
// is below the bound in force. In parallel each node is counted by the explorer whose
// interval holds its first leaf P (see factoradic.hpp). The explorer's position `pos` is the
// first leaf of the NEXT child to evaluate; everything in [begin, pos) is done. So splitting
// [pos, end) at any s hands the nodes with P in [s, end) to the thief, and the victim (which
// only evaluates children at positions < end) never touches them.
#pragma once
#include <cstdint>

#include "factoradic.hpp"
#include "hd.hpp"

namespace dpgpu::backtracking {

inline constexpr int kIvmRowCells = kIvmMaxFree * (kIvmMaxFree + 1) / 2;  // triangular M

template <class Cost>
struct IvmExplorer {
  std::uint64_t pos = 0, end = 0;    // remaining interval [pos, end)
  int k = 0;                         // depth of the node whose children are being tried
  std::uint8_t v[kIvmMaxFree];       // v[j]: index (in row j) of the child tried at depth j
  std::uint8_t city[kIvmMaxCities];  // city[j]: last city of the node at depth j (city[0] = 0)
  Cost cost[kIvmMaxCities];          // cost[j]: path cost of the node at depth j
  std::uint8_t row[kIvmRowCells];    // M: row j at row_offset(m, j), m - j cells
};

BT_HD int row_offset(int m, int j) { return j * m - (j * (j - 1)) / 2; }

// Why ivm_explore returned.
enum class IvmStop : int { Empty = 0, Told = 1 };

// Points the explorer at a fresh interval [begin, end): rebuilds the path of begin's leaf
// down to the first node whose own first leaf is `begin`; the nodes passed on the way start
// before begin, so another explorer counts them (not counted here). A passed node at or
// above the bound kills the rest of its subtree: the explorer moves past it.
template <class Cost, class Arcs>
BT_HD void ivm_init(IvmExplorer<Cost>& e, int m, const Arcs& arcs, Cost bound, std::uint64_t begin,
                    std::uint64_t end) {
  e.pos = begin;
  e.end = end;
  e.cost[0] = 0;
  e.city[0] = 0;
  for (int i = 0; i < m; ++i) e.row[i] = static_cast<std::uint8_t>(i + 1);
  e.k = 0;
  if (m == 0 || begin >= end) {
    if (m > 0) e.v[0] = 0;
    return;
  }
  std::uint8_t d[kIvmMaxFree];
  to_factoradic(begin, m, d);
  int last = -1;  // last nonzero digit
  for (int j = 0; j < m; ++j)
    if (d[j]) last = j;
  for (int j = 0;; ++j) {
    e.k = j;
    e.v[j] = d[j];
    if (j >= last) return;  // the child v[j] starts at `begin`: the main loop evaluates it
    const std::uint8_t* r = e.row + row_offset(m, j);
    const int c_city = r[d[j]];
    const Cost c = e.cost[j] + arcs(e.city[j], c_city);
    if (!(c < bound)) {  // dead subtree: continue after it
      const std::uint64_t size = factorial(m - 1 - j);
      e.pos = begin - begin % size + size;
      e.v[j] = static_cast<std::uint8_t>(d[j] + 1);
      return;
    }
    e.cost[j + 1] = c;
    e.city[j + 1] = static_cast<std::uint8_t>(c_city);
    std::uint8_t* w = e.row + row_offset(m, j + 1);
    for (int i = 0; i < m - j; ++i)
      if (i != d[j]) *w++ = r[i];
  }
}

// Depth-first from the explorer's state until its interval is empty (IvmStop::Empty) or
// tick() returns true (IvmStop::Told; the state stays resumable). tick() is called before
// each child evaluation. A child at depth m-1 is evaluated together with its single leaf (as
// the bitset search does at its leaf parent), so the explorer never descends below m-2. Inc: Cost bound() const; void offer(Cost tour, const uint8_t* city,
// int k, int last). `fact[i]` = i!. Adds the nodes counted to `nodes`.
template <class Cost, class Arcs, class Inc, class Tick>
BT_HD IvmStop ivm_explore(IvmExplorer<Cost>& e, int m, const Arcs& arcs, const std::uint64_t* fact,
                          Inc& inc, std::uint64_t& nodes, Tick&& tick) {
  if (m == 0) return IvmStop::Empty;
  int k = e.k;
  for (;;) {
    while (e.v[k] > m - 1 - k) {  // children of depth k exhausted: back up
      if (k == 0) {
        e.k = 0;
        return IvmStop::Empty;
      }
      --k;
      ++e.v[k];
    }
    if (e.pos >= e.end) {
      e.k = k;
      return IvmStop::Empty;
    }
    if (tick()) {
      e.k = k;
      return IvmStop::Told;
    }
    const std::uint8_t* r = e.row + row_offset(m, k);
    const int idx = e.v[k];
    const int j = r[idx];
    const Cost c = e.cost[k] + arcs(e.city[k], j);
    const Cost bound = inc.bound();
    if (k == m - 1) {  // a full permutation: count it, examine the tour
      if (c < bound) ++nodes;
      const Cost tour = c + arcs(j, 0);
      if (tour <= bound) inc.offer(tour, e.city, k, j);
      e.pos += 1;
      e.v[k] = static_cast<std::uint8_t>(idx + 1);
      continue;
    }
    if (k == m - 2) {  // the child has one child, a full permutation: both inline, no descent
      if (c < bound) {
        ++nodes;
        const int other = r[1 - idx];
        const Cost leaf = c + arcs(j, other);
        if (leaf < bound) ++nodes;
        const Cost tour = leaf + arcs(other, 0);
        if (tour <= bound) {
          e.city[k + 1] = static_cast<std::uint8_t>(j);
          inc.offer(tour, e.city, k + 1, other);
        }
      }
      e.pos += 1;  // the child's subtree is one leaf
      e.v[k] = static_cast<std::uint8_t>(idx + 1);
      continue;
    }
    if (c < bound) {
      ++nodes;
      std::uint8_t* w = e.row + row_offset(m, k + 1);
      for (int i = 0; i < idx; ++i) w[i] = r[i];
      for (int i = idx + 1; i < m - k; ++i) w[i - 1] = r[i];
      ++k;
      e.cost[k] = c;
      e.city[k] = static_cast<std::uint8_t>(j);
      e.v[k] = 0;
    } else {
      e.pos += fact[m - 1 - k];
      e.v[k] = static_cast<std::uint8_t>(idx + 1);
    }
  }
}

}  // namespace dpgpu::backtracking
