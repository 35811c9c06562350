// upper_bound.hpp — cpu.bnb's first tour, its starting upper bound: nearest neighbour from
// every city (at most `starts` of them, evenly spread), each improved by 2-opt and Or-opt
// (segments of 1 to 3 cities moved, either way round) until neither finds a shorter tour;
// the shortest. Symmetric instances, n >= 3; O(starts · n² · passes). `poll` is called after
// every pass (it may throw to stop).
#pragma once
#include <cstdint>
#include <vector>

#include "dpgpu/poller.hpp"
#include "tsp/tsp.hpp"

namespace tsp::cpu::bnb {

struct HeuristicTour {
  std::int64_t cost = 0;
  std::vector<std::int32_t> tour;  // from city 0
};

HeuristicTour heuristic_tour(const Instance& x, int starts, const dpgpu::Poll& poll = {});

// One improvement pass each, in place; true when the tour got shorter (for tests).
bool two_opt_pass(const Instance& x, std::vector<std::int32_t>& tour);
bool or_opt_pass(const Instance& x, std::vector<std::int32_t>& tour);

}  // namespace tsp::cpu::bnb
