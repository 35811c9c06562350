// ivm_packed.hpp — the packed Integer-Vector-Matrix explorer of gpu.ivm (`state: packed`, the
// default): the same search, positions and counting as ivm_explorer.hpp, with a state small
// enough to live in registers for the whole TreeExplore launch (no local memory), so that
// 2048 explorers fit on an SM instead of about 250.
//
// The matrix is not stored: row k of IvmExplorer (the cities still free below depth k, in
// increasing order) is exactly the set bits of the free mask at depth k, and the digit v[k]
// (the index of the child tried in that row) is the rank of the child's city in it. So the
// explorer keeps, for n <= 21:
//   - the path city[1..k] as 5-bit fields in two 64-bit words (12 fields each),
//   - the free mask (cities not on the path), the depth k, the path cost at depth k,
//   - `next`: the lowest city that may be the next child tried at depth k
//     (the next child is the lowest set bit of free >= next: one shift and a count-trailing-zeros).
// Going back up restores the parent's cost by subtracting the arc (exact: integer costs) and
// its free mask by setting the bit, so nothing per depth is stored but the path's cities.
// The children of a node are visited in the same order as the matrix explorer's, hence the
// same leaf positions, the same pos/end bookkeeping and the same nodes counted.
#pragma once
#include <cstdint>

#include "bp_explorer.hpp"  // lowest_bit
#include "factoradic.hpp"
#include "hd.hpp"
#include "ivm_explorer.hpp"  // IvmStop

namespace dpgpu::backtracking {

inline constexpr int kPathFieldsPerWord = 12;  // 5-bit fields of a 64-bit word (60 bits used)

template <class Cost>
struct IvmPacked {
  std::uint64_t pos = 0, end = 0;  // remaining interval [pos, end)
  std::uint64_t path[2] = {0, 0};  // city[j] at field j (field 0: city 0, always 0)
  std::uint32_t free = 0;          // cities not on the path city[0..k]
  Cost cost = 0;                   // path cost of the node at depth k
  std::uint8_t k = 0;              // depth of the node whose children are tried
  std::uint8_t next = 0;           // the next child tried is the lowest free city >= next
};

BT_HD int path_city(std::uint64_t p0, std::uint64_t p1, int j) {
  const bool low = j < kPathFieldsPerWord;
  const int shift = 5 * (low ? j : j - kPathFieldsPerWord);
  return static_cast<int>(((low ? p0 : p1) >> shift) & 31u);
}

BT_HD void set_path_city(std::uint64_t& p0, std::uint64_t& p1, int j, int city) {
  const bool low = j < kPathFieldsPerWord;
  const int shift = 5 * (low ? j : j - kPathFieldsPerWord);
  std::uint64_t& w = low ? p0 : p1;
  w = (w & ~(std::uint64_t{31} << shift)) | (std::uint64_t(city) << shift);
}

// The `rank`-th (0-based) set bit of `set`.
BT_HD int nth_set_bit(std::uint32_t set, int rank) {
  for (int i = 0; i < rank; ++i) set &= set - 1;
  return lowest_bit(set);
}

// As ivm_init of ivm_explorer.hpp: points the explorer at [begin, end), rebuilding the path of
// begin's leaf down to the first node whose own first leaf is `begin` (passed nodes are not
// counted; a dead one moves the explorer past its subtree).
template <class Cost, class Arcs>
BT_HD void ivm_init(IvmPacked<Cost>& e, int m, const Arcs& arcs, Cost bound, std::uint64_t begin,
                    std::uint64_t end) {
  e.pos = begin;
  e.end = end;
  e.path[0] = e.path[1] = 0;
  e.free = ((std::uint32_t{1} << (m + 1)) - 1) & ~std::uint32_t{1};  // cities 1..m
  e.cost = 0;
  e.k = 0;
  e.next = 0;
  if (m == 0 || begin >= end) return;
  std::uint8_t d[kIvmMaxFree];
  to_factoradic(begin, m, d);
  int last = -1;  // last nonzero digit
  for (int j = 0; j < m; ++j)
    if (d[j]) last = j;
  int at = 0;  // city of the node at depth j
  for (int j = 0;; ++j) {
    e.k = static_cast<std::uint8_t>(j);
    const int city = nth_set_bit(e.free, d[j]);
    e.next = static_cast<std::uint8_t>(city);
    if (j >= last) return;  // the child d[j] starts at `begin`: the main loop evaluates it
    const Cost c = e.cost + arcs(at, city);
    if (!(c < bound)) {  // dead subtree: continue after it
      const std::uint64_t size = factorial(m - 1 - j);
      e.pos = begin - begin % size + size;
      e.next = static_cast<std::uint8_t>(city + 1);
      return;
    }
    e.cost = c;
    set_path_city(e.path[0], e.path[1], j + 1, city);
    e.free &= ~(std::uint32_t{1} << city);
    at = city;
  }
}

// While no child is left to try at depth k (`cand` empty), backs the packed state up one depth:
// the parent's cost and free mask restored, its children left those after the one backed out
// of. Returns the children left at the depth reached; 0 when the root has none.
template <class Cost, class Arcs>
BT_HD std::uint32_t ivm_back_up(std::uint64_t p0, std::uint64_t p1, const Arcs& arcs, int& k,
                                int& at, Cost& cost, std::uint32_t& free, std::uint32_t cand) {
  while (cand == 0) {  // children of depth k exhausted: back up
    if (k == 0) return 0;
    const int child = at;
    --k;
    at = path_city(p0, p1, k);
    cost -= arcs(at, child);
    free |= std::uint32_t{1} << child;
    cand = free & (~std::uint32_t{1} << child);
  }
  return cand;
}

// As ivm_explore of ivm_explorer.hpp (same stops, same counting, same tours offered), on the
// packed state held in locals. Inc: Cost bound(); void offer_path(Cost tour, int count,
// CityAt city_at) with city_at(i) the i-th city of the tour (i < count = m + 1).
template <class Cost, class Arcs, class Inc, class Tick>
BT_HD IvmStop ivm_explore(IvmPacked<Cost>& e, int m, const Arcs& arcs, const std::uint64_t* fact,
                          Inc& inc, std::uint64_t& nodes, Tick&& tick) {
  if (m == 0) return IvmStop::Empty;
  std::uint64_t p0 = e.path[0], p1 = e.path[1], pos = e.pos;
  const std::uint64_t end = e.end;
  std::uint32_t free = e.free;
  Cost cost = e.cost;
  int k = e.k, next = e.next;
  int at = path_city(p0, p1, k);  // city of the node at depth k
  std::uint64_t counted = 0;
  IvmStop why = IvmStop::Empty;
  for (;;) {
    const std::uint32_t cand = ivm_back_up(p0, p1, arcs, k, at, cost, free,
                                           free & (~std::uint32_t{0} << next));  // next <= n <= 21
    if (cand == 0) {  // the root's children exhausted
      why = IvmStop::Empty;
      break;
    }
    const int j = lowest_bit(cand);
    next = j;
    if (pos >= end) {
      why = IvmStop::Empty;
      break;
    }
    if (tick()) {
      why = IvmStop::Told;
      break;
    }
    next = j + 1;
    const Cost c = cost + arcs(at, j);
    const Cost bound = inc.bound();
    if (k == m - 1) {  // a full permutation: count it, examine the tour
      if (c < bound) ++counted;
      const Cost tour = c + arcs(j, 0);
      if (tour <= bound)
        inc.offer_path(tour, m + 1, [&](int i) { return i <= k ? path_city(p0, p1, i) : j; });
      pos += 1;
      continue;
    }
    if (k == m - 2) {  // the child has one child, a full permutation: both inline, no descent
      if (c < bound) {
        ++counted;
        const int other = lowest_bit(free & ~(std::uint32_t{1} << j));
        const Cost leaf = c + arcs(j, other);
        if (leaf < bound) ++counted;
        const Cost tour = leaf + arcs(other, 0);
        if (tour <= bound)
          inc.offer_path(tour, m + 1, [&](int i) {
            return i <= k ? path_city(p0, p1, i) : i == k + 1 ? j : other;
          });
      }
      pos += 1;  // the child's subtree is one leaf
      continue;
    }
    if (c < bound) {
      ++counted;
      ++k;
      set_path_city(p0, p1, k, j);
      free &= ~(std::uint32_t{1} << j);
      cost = c;
      at = j;
      next = 0;
    } else {
      pos += fact[m - 1 - k];
    }
  }
  e.path[0] = p0;
  e.path[1] = p1;
  e.pos = pos;
  e.free = free;
  e.cost = cost;
  e.k = static_cast<std::uint8_t>(k);
  e.next = static_cast<std::uint8_t>(next);
  nodes += counted;
  return why;
}

}  // namespace dpgpu::backtracking
