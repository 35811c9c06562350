// dfs.hpp — the paper's serial baseline (paper 004, Sect. 2.3 and 4.1): depth-first
// implicit enumeration of ATSP tours from city 0, non-recursive, a bitset of visited
// cities, pruning by partial cost against the bound in force. Counts nodes by THE rule of
// tsp/search_bound.hpp, so its `nodes` are what every other search solver must report
// with initial_ub: optimal.
//
// For other folders (GPU solvers, their tests): link the CMake target
// `dpgpu_baselines_tsp` and #include "dfs.hpp" (it brings tsp/search_bound.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "tsp/search_bound.hpp"
#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"

namespace tsp::cpu {

// Bitset search handles at most this many cities (one 64-bit mask).
inline constexpr int kMaxSearchCities = 64;

struct SearchResult {
  std::int64_t cost = kNoBound;    // the held tour's closed cost; kNoBound when none
  std::vector<std::int32_t> tour;  // starts at city 0; empty when no tour <= the bound
  std::uint64_t nodes = 0;         // nodes counted (search_bound.hpp)
};

// Serial DFS; children in increasing city order. `bound` is the starting bound
// (starting_bound()). Throws std::invalid_argument when n > kMaxSearchCities.
SearchResult dfs(const Instance& x, std::int64_t bound, const Poll& poll = {});

// The same search over OpenMP threads: the tree is expanded serially down to paths of
// 1 + split_depth cities (those nodes counted there), then each such node's subtree is one
// dynamically scheduled task; the bound in force and the held tour are shared (an atomic
// bound, a mutex around the tour). threads 0: OpenMP's default. With the optimal bound the
// node count equals dfs()'s exactly.
inline constexpr int kDefaultSplitDepth = 4;
SearchResult omp_dfs(const Instance& x, std::int64_t bound, int threads,
                     int split_depth = kDefaultSplitDepth, const Poll& poll = {});

}  // namespace tsp::cpu
