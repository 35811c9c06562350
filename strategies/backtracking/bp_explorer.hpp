// bp_explorer.hpp — the bitset depth-first search of gpu.bpdfs (paper 004, Sect. 2.3-2.4):
// one frame per city on the path with the cities still free and the children not yet tried
// as 32-bit sets (the paper's bitset is an int), so the next child is a count-trailing-zeros.
// The same code explores a frontier node's subtree in the kernel and, on the CPU, in the
// tests. Counting follows problems/tsp/search_bound.hpp.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace dpgpu::backtracking {

inline constexpr int kBpMaxCities = 32;

template <class Cost>
struct BpFrame {
  std::uint32_t free = 0;  // cities not on the path (after this frame's city)
  std::uint32_t todo = 0;  // children not yet tried (a subset of free)
  Cost cost = 0;           // path cost up to this frame's city
  std::int32_t city = 0;
};

BT_HD int lowest_bit(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

// Explores the subtree below frames[top] (already counted by the caller); frames[0..top] hold
// the path (only .city below top). Inc: Cost bound() const; void offer(Cost tour, const
// BpFrame<Cost>* frames, int last_index, int last_city). Returns the nodes counted below top.
template <class Cost, class Arcs, class Inc>
BT_HD std::uint64_t bp_explore(const Arcs& arcs, int n, BpFrame<Cost>* frames, int top, Inc& inc) {
  const int leaf_parent = n - 2;  // frame index whose children are full permutations
  std::uint64_t nodes = 0;
  int d = top;
  while (d >= top) {
    BpFrame<Cost>& f = frames[d];
    if (f.todo == 0) {
      --d;
      continue;
    }
    const int j = lowest_bit(f.todo);
    f.todo &= f.todo - 1;
    const Cost c = f.cost + arcs(f.city, j);
    const Cost bound = inc.bound();
    if (d == leaf_parent) {
      if (c < bound) ++nodes;
      const Cost tour = c + arcs(j, 0);
      if (tour <= bound) inc.offer(tour, frames, d, j);
      continue;
    }
    if (!(c < bound)) continue;
    ++nodes;
    BpFrame<Cost>& child = frames[d + 1];
    child.free = f.free & ~(std::uint32_t{1} << j);
    child.todo = child.free;
    child.cost = c;
    child.city = j;
    ++d;
  }
  return nodes;
}

}  // namespace dpgpu::backtracking
