// dfs_core.hpp — the depth-first loop shared by dfs() and omp_dfs(): one stack frame per
// city on the path, each holding the cities still free and the children not yet tried as
// 64-bit masks, so moving to the next child is a count-trailing-zeros and a clear-lowest-bit
// (the bitset of paper 004, Sect. 2.3). Counting follows tsp/search_bound.hpp.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "dfs.hpp"
#include "tsp/search_bound.hpp"

namespace tsp::cpu::detail {

struct Frame {
  std::uint64_t free = 0;  // cities not on the path (after this frame's city)
  std::uint64_t todo = 0;  // children of this node not yet tried (a subset of free)
  std::int64_t cost = 0;   // path cost up to this frame's city
  std::int32_t city = 0;
};

// The matrix as the loop reads it: row-major, n·n.
struct Arcs {
  int n = 0;
  std::vector<std::int64_t> d;
  std::int64_t operator()(int i, int j) const { return d[std::size_t(i) * n + j]; }
};

// Explores the subtree below frames[top] (already counted by the caller); frames[0..top]
// hold the path. Children at frame index `cut` are counted and handed to emit(frames, cut)
// instead of being explored (cut > n - 2: never). Bound policy B:
//   std::int64_t bound() const;                               the bound in force
//   void offer(std::int64_t tour_cost, const Frame* frames, int last_index, int last_city);
// Tick: called with each batch of 2^16 nodes tried; may throw to stop.
// Returns the nodes counted below frames[top].
template <class B, class Emit, class Tick>
std::uint64_t explore(const Arcs& arcs, Frame* frames, int top, int cut, B& policy, Emit&& emit,
                      Tick&& tick) {
  const int n = arcs.n;
  const int leaf_parent = n - 2;  // frame index whose children are full permutations
  std::uint64_t nodes = 0;
  std::uint32_t tried = 0;
  int d = top;
  while (d >= top) {
    Frame& f = frames[d];
    if (f.todo == 0) {
      --d;
      continue;
    }
    if (++tried == (1u << 16)) tried = 0, tick();
    const int j = std::countr_zero(f.todo);
    f.todo &= f.todo - 1;
    const std::int64_t c = f.cost + arcs(f.city, j);
    const std::int64_t bound = policy.bound();
    if (d == leaf_parent) {  // the child is a full permutation: count it, examine the tour
      if (c < bound) ++nodes;
      const std::int64_t tour = c + arcs(j, 0);
      if (tour <= bound) policy.offer(tour, frames, d, j);
      continue;
    }
    if (c >= bound) continue;
    ++nodes;
    Frame& child = frames[d + 1];
    child.free = f.free & ~(std::uint64_t{1} << j);
    child.todo = child.free;
    child.cost = c;
    child.city = j;
    if (d + 1 == cut) {
      emit(frames, d + 1);
      continue;
    }
    ++d;
  }
  return nodes;
}

// The closed tour held as cities: frames[0..last_index] then last_city.
inline std::vector<std::int32_t> tour_of(const Frame* frames, int last_index, int last_city) {
  std::vector<std::int32_t> t;
  t.reserve(std::size_t(last_index) + 2);
  for (int k = 0; k <= last_index; ++k) t.push_back(frames[k].city);
  t.push_back(last_city);
  return t;
}

// The matrix, or std::invalid_argument when n > kMaxSearchCities.
Arcs arcs_of(const Instance& x);
// Resets r, counts the root, and fills frames[0]; false when nothing below it is searched
// (n = 1, whose only tour it records, or a bound <= 0).
bool root(const Instance& x, std::int64_t bound, Frame* frames, SearchResult& r);

}  // namespace tsp::cpu::detail
