// held_karp_table.hpp — the Held-Karp DP over the whole 2^m × m table (m = n - 1 cities after
// city 0), once for the reference optimum (reference.cpp) and the cpu.held_karp baseline:
//   cost[{j}][j] = d(0, j)
//   cost[S][j]   = min over k in S \ {j} of cost[S \ {j}][k] + d(k, j)
// Cells with j not in S are allocated (the table is indexed S·m + j) but never touched.
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "tsp/tsp.hpp"

namespace tsp {

// Arcs into each city, by source: into[j·m + k] = d(k+1 → j+1), so the inner loop over
// predecessors k reads one contiguous column.
template <class Cost>
std::vector<Cost> arcs_into(const Instance& x) {
  const int m = x.n - 1;
  std::vector<Cost> into(std::size_t(m) * m);
  for (int j = 0; j < m; ++j)
    for (int k = 0; k < m; ++k)
      into[std::size_t(j) * m + k] = static_cast<Cost>(x.arc(k + 1, j + 1));
  return into;
}

// Fills cost (2^m · m cells) and, when not null, parent (the best predecessor k of each
// cell); calls after_subset(s) once per subset of two or more cities. Cost must hold every
// path's cost (cost_upper_bound chooses it): the sums do not overflow.
template <class Cost, class AfterSubset>
void fill_held_karp(const Instance& x, Cost* cost, std::uint8_t* parent,
                    AfterSubset&& after_subset) {
  const int m = x.n - 1;
  const std::uint64_t rows = std::uint64_t{1} << m;
  const auto into = arcs_into<Cost>(x);
  for (int j = 0; j < m; ++j)
    cost[(std::uint64_t{1} << j) * m + j] = static_cast<Cost>(x.arc(0, j + 1));
  for (std::uint64_t s = 3; s < rows; ++s) {
    if ((s & (s - 1)) == 0) continue;  // singletons are set above
    for (std::uint64_t js = s; js != 0; js &= js - 1) {
      const int j = std::countr_zero(js);
      const std::uint64_t before = s ^ (std::uint64_t{1} << j);
      const Cost* row = &cost[before * m];
      const Cost* col = &into[std::size_t(j) * m];
      Cost best = std::numeric_limits<Cost>::max();
      int arg = 0;
      for (std::uint64_t ks = before; ks != 0; ks &= ks - 1) {
        const int k = std::countr_zero(ks);
        const Cost c = row[k] + col[k];
        if (c < best) best = c, arg = k;
      }
      cost[s * m + j] = best;
      if (parent) parent[s * m + j] = static_cast<std::uint8_t>(arg);
    }
    after_subset(s);
  }
}

}  // namespace tsp
