// bp_frontier.hpp — gpu.bpdfs's initial CPU search (paper 004, Sect. 2.3): depth-first from
// city 0 down to paths of `depth` cities; every path of that length whose cost is below the
// bound goes into the active set (its cycle, the bitset of its cities, its cost). All nodes
// met on the way, the active set's included, are counted here; the GPU counts what lies below.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "tsp/tsp.hpp"

namespace dpgpu::backtracking {

struct ActiveSet {
  int depth = 0;                       // cities per path (city 0 first)
  std::vector<std::uint8_t> cycles;    // size() * depth cities, path after path
  std::vector<std::uint32_t> bitsets;  // bit c set: city c on the path
  std::vector<std::int64_t> costs;     // path cost, no return arc
  std::uint64_t nodes = 0;             // nodes counted by the CPU search (root included)
  std::size_t size() const { return costs.size(); }
};

// 1 <= depth <= n - 1, n <= 32. `poll` is called every 2^16 nodes (may throw to stop).
ActiveSet bp_frontier(const tsp::Instance& x, std::int64_t bound, int depth,
                      const std::function<void()>& poll = {});

}  // namespace dpgpu::backtracking
