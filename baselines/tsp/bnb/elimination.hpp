// elimination.hpp — edges no better tour can use, found from a 1-tree bound (reduced costs):
// forcing an edge e = {i, j} outside the least 1-tree T (bound L at penalties π) into it costs
// at least c'(e) − (the dearest edge of T that e would replace): the dearest edge on T's path
// from i to j for cities 1..n-1, the dearer of city 0's two edges for an edge at city 0. When
// L + c'(e) − replaced cannot beat ub (ascent.hpp's cannot_beat), every tour through e is no
// shorter than ub, and e is excluded. Used at the root, where no edge is decided yet.
#pragma once
#include <cstdint>
#include <vector>

#include "edge_states.hpp"
#include "one_tree.hpp"
#include "tsp/tsp.hpp"

namespace tsp::cpu::bnb {

// Excludes from `s` the free edges that no tour shorter than `ub` uses, given the least 1-tree
// `t` of `s` at penalties `pi` with bound `bound`. Returns the number excluded; `s` may become
// infeasible (then no tour is shorter than ub).
int eliminate_edges(const Instance& x, const OneTree& t, const std::vector<double>& pi,
                    double bound, std::int64_t ub, EdgeStates& s);

}  // namespace tsp::cpu::bnb
