// reference.hpp — the tiny reference solver tests hold every other solver to: every
// ordering of cities 1..n-1 after city 0, each tour's cost summed from the matrix.
// Deliberately plain, so it is easy to trust; n <= 11 ((n-1)! tours).
// Also a plain Held-Karp for the optimum alone (generators use it).
#pragma once
#include <cstdint>
#include <vector>

#include "tsp/tsp.hpp"

namespace tsp {

struct ReferenceTour {
  std::int64_t cost = 0;
  std::vector<std::int32_t> tour;  // the first optimal tour in lexicographic order
};

ReferenceTour brute_force(const Instance& x);

// The optimal tour's cost by Held-Karp (cost only, no tour), for generators that record
// the optimum of what they make (Instance::optimum). Whole 2^(n-1)·(n-1) table of 32-bit
// cells when every path fits in int32, else 64-bit: n = 22 takes ~180 MB and about a
// second. 1 <= n <= kMaxHeldKarpOptimum.
inline constexpr int kMaxHeldKarpOptimum = 25;
// Up to this n the generators record the optimum by default (optimum_max_n), and the planner
// computes one for a file without a known optimum when a search needs it (initial_ub:
// optimal; Problem::reference_optimum): about a second and ~180 MB at n = 22.
inline constexpr int kDefaultOptimumMaxN = 22;
std::int64_t held_karp_optimum(const Instance& x);

}  // namespace tsp
