#include "bp_frontier.hpp"

#include <stdexcept>
#include <string>

namespace dpgpu::backtracking {

ActiveSet bp_frontier(const tsp::Instance& x, std::int64_t bound, int depth,
                      const std::function<void()>& poll) {
  const int n = x.n;
  if (n < 2 || n > 32 || depth < 1 || depth > n - 1)
    throw std::invalid_argument("bp_frontier: need 2 <= n <= 32 and 1 <= depth <= n - 1, got n = " +
                                std::to_string(n) + ", depth = " + std::to_string(depth));
  ActiveSet a;
  a.depth = depth;
  if (!(0 < bound)) return a;  // not even the root counts
  a.nodes = 1;                 // the root
  std::uint8_t path[32] = {0};
  std::uint32_t todo[32] = {0};
  std::int64_t cost[32] = {0};
  const std::uint32_t all = n == 32 ? ~0u : (1u << n) - 1;
  auto store = [&](int len, std::uint32_t visited, std::int64_t c) {
    a.cycles.insert(a.cycles.end(), path, path + len);
    a.bitsets.push_back(visited);
    a.costs.push_back(c);
  };
  if (depth == 1) {
    store(1, 1u, 0);
    return a;
  }
  std::uint32_t visited = 1u;
  todo[0] = all & ~1u;
  std::uint32_t ticks = 0;
  int d = 0;  // index of the last city on the path
  while (d >= 0) {
    if (todo[d] == 0) {
      visited &= ~(1u << path[d]);
      if (d == 0) break;
      --d;
      continue;
    }
    if (++ticks == (1u << 16)) {
      ticks = 0;
      if (poll) poll();
    }
    const int j = __builtin_ctz(todo[d]);
    todo[d] &= todo[d] - 1;
    const std::int64_t c = cost[d] + x.arc(path[d], j);
    if (!(c < bound)) continue;
    ++a.nodes;
    path[d + 1] = static_cast<std::uint8_t>(j);
    cost[d + 1] = c;
    if (d + 2 == depth) {  // a path of `depth` cities: into the active set
      store(depth, visited | (1u << j), c);
      continue;
    }
    ++d;
    visited |= 1u << j;
    todo[d] = all & ~visited;
  }
  return a;
}

}  // namespace dpgpu::backtracking
