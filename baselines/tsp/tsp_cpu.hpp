// tsp_cpu.hpp — CPU algorithms for the TSP, as plain functions (each <algorithm>_params.cpp
// makes one a solver). Each takes a `Poll` that long loops call every few million arc relaxations; it
// throws (dpgpu::Timeout from the solver's context) to stop them.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "dpgpu/poller.hpp"
#include "tsp/tsp.hpp"

namespace tsp::cpu {

using dpgpu::Poll;  // empty: never stops early
using dpgpu::Poller;

struct Tour {
  std::int64_t cost = 0;
  std::vector<std::int32_t> tour;  // starts at city 0
};

// Held-Karp cells are 32-bit when no path can cost more than INT32_MAX (cost_upper_bound),
// else 64-bit. Returns 4 or 8.
std::size_t held_karp_cell_bytes(const Instance& x);

// Held-Karp with city 0 fixed as the start: cost[S][j] over all 2^(n-1) subsets S of the
// other cities and every last city j, plus one predecessor byte per cell for the tour.
// Subsets in integer order (each after its subsets). Throws std::bad_alloc when the table
// cannot be had (n - 1 > 62 never can).
Tour held_karp(const Instance& x, const Poll& poll = {});
// Bytes held_karp allocates: 2^(n-1)·(n-1) cells of cost and predecessor, and the matrix
// copy. Saturates at UINT64_MAX.
std::uint64_t held_karp_bytes(const Instance& x);

// Held-Karp layer by layer: layer k holds the C(n-1, k) subsets of size k, ranked in the
// combinatorial number system (tsp/subset_rank.hpp), each with k cells (one per possible
// last city, by position in the subset). A layer depends only on the one before, so its
// subsets run in parallel (OpenMP), and only two layers of costs are kept; predecessors are
// kept for all layers ((n-1)·2^(n-2) bytes) to rebuild the tour.
// threads 0: OpenMP's default (OMP_NUM_THREADS, else all cores). block: consecutive subsets
// per scheduling unit (>= 1); a layer of a single block runs without waking the team.
inline constexpr std::uint64_t kDefaultBlock = 2048;
Tour omp_held_karp(const Instance& x, int threads, std::uint64_t block = kDefaultBlock,
                   const Poll& poll = {});
std::uint64_t omp_held_karp_bytes(const Instance& x);

}  // namespace tsp::cpu
