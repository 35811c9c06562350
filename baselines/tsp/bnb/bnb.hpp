// bnb.hpp — cpu.bnb: exact symmetric TSP by depth-first branch and bound on the Held-Karp
// 1-tree bound (one_tree.hpp, ascent.hpp), the comparator kind of paper 000's Fig. 4c.
//   - first tour: nearest neighbour + 2-opt + Or-opt (upper_bound.hpp), or none (starts 0);
//   - root: a long subgradient ascent from π = 0, then the edges that no tour shorter than the
//     first one can use (reduced costs, elimination.hpp) excluded; each node: a short ascent
//     from its parent's π;
//   - branching (Volgenant and Jonker, 1982): at the city v of largest 1-tree degree, with
//     e1, e2 its first free tree edges, the children are {e1 excluded}, {e1 included, e2
//     excluded} and {e1 and e2 included} (v with one included edge: {e1 excluded}, {e1
//     included}); each child's decisions propagate (edge_states.hpp);
//   - children are bounded when made and searched lowest bound first; a node is dropped when
//     its bound shows no tour of it beats the best tour found (integer lengths).
// One thread. The tour returned is optimal; its length is recomputed from the matrix.
#pragma once
#include <cstdint>
#include <vector>

#include "ascent.hpp"
#include "dpgpu/poller.hpp"
#include "tsp/tsp.hpp"

namespace tsp::cpu::bnb {

struct Options {
  int root_steps = 1000;  // the root's ascent: 1-trees at most
  int node_steps = 20;    // each other node's ascent: 1-trees at most
  int starts = 16;        // nearest-neighbour starts for the first tour; 0: none, the search
                          // starts above every tour (cost_upper_bound + 1) and finds its own
  bool eliminate = true;  // exclude at the root the edges whose reduced cost rules them out
};

struct Result {
  std::int64_t cost = 0;
  std::vector<std::int32_t> tour;  // from city 0
  std::uint64_t nodes = 0;         // nodes bounded, the root included
  std::uint64_t evaluations = 0;   // 1-trees built
  std::int64_t first_tour = 0;     // the heuristic tour's length (0: starts 0)
  double root_bound = 0;           // the root's best L(π) (the first tour's length when n <= 3)
  std::uint64_t eliminated = 0;    // edges excluded at the root by their reduced cost
};

// Throws std::invalid_argument for an asymmetric instance (`why_not`), dpgpu::Timeout (from
// `poll`, called every ~4M units of 1-tree work).
Result branch_and_bound(const Instance& x, const Options& o, const dpgpu::Poll& poll = {});

// Why cpu.bnb cannot solve `x`, or "".
std::string why_not(const Instance& x);

}  // namespace tsp::cpu::bnb
