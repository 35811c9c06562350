// ascent.hpp — the bound of a cpu.bnb node: subgradient ascent on the penalties π of the
// 1-tree bound (one_tree.hpp), after Held and Karp (1971) and Held, Wolfe and Crowder (1974).
// Each step moves π_v by t·(degree_v − 2), t = λ·(ub − L(π)) / Σ_v (degree_v − 2)²;
// λ starts at `lambda` and halves after `period` steps without a better bound. The root runs
// long; a node starts from its parent's best π and runs a few steps.
#pragma once
#include <cstdint>
#include <vector>

#include "edge_states.hpp"
#include "one_tree.hpp"

namespace tsp::cpu::bnb {

struct AscentPlan {
  int steps = 0;        // 1-trees at most
  double lambda = 2.0;  // the first step's λ
  int period = 1;       // steps without a better bound before λ halves (>= 1)
};

enum class Verdict : std::uint8_t {
  open,        // bound below ub: branch on `tree`
  pruned,      // no tour of the node is shorter than ub
  tour,        // `tree` is a tour of length `bound`: the node's best tour
  infeasible,  // no 1-tree, so no tour, meets the node's decisions
};

struct Bound {
  Verdict verdict = Verdict::open;
  double bound = 0;     // the best L(π) seen
  OneTree tree;         // the 1-tree of that L(π)
  int evaluations = 0;  // 1-trees built
};

// True when a node whose tours all cost at least `bound` (a real, rounding included) cannot
// hold one below the integer `ub`: bound > ub − 1 with a margin for the doubles' rounding.
bool cannot_beat(double bound, std::int64_t ub, const std::vector<double>& pi);

// Ascent from `pi` (n values, updated to the best bound's penalties) on the node `s`, whose
// tours must beat `ub` to matter.
Bound ascend(OneTreeBuilder& trees, const EdgeStates& s, std::vector<double>& pi, std::int64_t ub,
             const AscentPlan& plan);

// The cities of a 1-tree whose degrees are all 2, in tour order from city 0.
std::vector<std::int32_t> tour_of(const OneTree& t);

}  // namespace tsp::cpu::bnb
