// atsp_classes.hpp — reconstructions of the DIMACS ATSP instance classes of Cirasella,
// Johnson, McGeoch and Zhang (2001) used by paper 004: amat, tmat, tsmat, crane, coin.
// The original generator code could not be obtained; these follow
// ../shared/data/atsp-generators/DEFINITIONS.md, and every constant it marks unverified is a
// parameter here. They are "coin-like", "crane-like", ... : not the DIMACS instances, and
// not bit-for-bit (we draw from std::mt19937_64(seed) through draw_below(), they used their
// own genrand). All arcs are integers, the diagonal 0.
#pragma once
#include <cstdint>

#include "tsp/tsp.hpp"

namespace tsp {

// amat: every arc i→j (i != j, row after row) uniform in [min, max] (DIMACS: [0, 10^6), so
// defaults 0 and 999999; whether 0 is allowed is unverified). Asymmetric.
inline constexpr std::int64_t kMatrixClassMax = 999'999;
Instance amat(int n, std::int64_t min, std::int64_t max, std::uint64_t seed);

// tmat: amat closed under shortest paths (Floyd-Warshall): asymmetric, triangle inequality.
Instance tmat(int n, std::int64_t min, std::int64_t max, std::uint64_t seed);

// tsmat: one draw per unordered pair i < j (row after row), uniform in [min, max], mirrored,
// then closed under shortest paths: SYMMETRIC and metric (DEFINITIONS.md; paper 004 calls
// it asymmetric, which the class definition contradicts).
Instance tsmat(int n, std::int64_t min, std::int64_t max, std::uint64_t seed);

// Replaces every arc by the shortest path between its ends (Floyd-Warshall, O(n^3)).
void close_under_shortest_paths(int n, std::vector<std::int64_t>& dist);

// crane: city k is a stacker-crane job, picked up at source s_k and delivered at t_k.
// s_k has integer coordinates uniform in [0, side)²; t_k = s_k + (dx, dy) with dx, dy
// uniform in [-L, L], L = round(job_scale · side / sqrt(n)) (jobs about as long as the
// empty moves between neighbouring jobs, as the paper scales them). Drawn job by job:
// s.x, s.y, dx, dy. d(i, j) = nint(|t_i − s_j|) + (loaded ? nint(|s_j − t_j|) : 0): the
// empty move to job j, plus job j's loaded move (a constant per tour; it changes node
// counts, not the optimal tour).
struct CraneShape {
  std::int64_t side = 1'000'000;
  double job_scale = 1.0;
  bool loaded = true;
};
Instance crane(int n, const CraneShape& shape, std::uint64_t seed);

// coin: pay phones at distinct intersections of a grid × grid street grid (drawn uniformly,
// phone after phone, a repeat drawn again), blocks `block` long. Streets are one-way,
// alternating: east-west street y runs east when y is even, west when odd; north-south
// street x runs north when x is odd, south when even (the block at the origin is a one-way
// loop); with `ring` the four outer streets are two-way (else corners can be dead ends),
// and every `two_way_every`-th street (k % two_way_every == 0; 0: none) is two-way too. d(i, j) is the shortest legal drive
// (breadth-first search over the directed grid) times `block`. Asymmetric, metric.
// grid 0: the smallest g >= 2 with g² >= 4n (about four intersections per phone).
// std::invalid_argument when some phone cannot reach another.
struct CoinShape {
  int grid = 0;
  std::int64_t block = 100;
  int two_way_every = 0;
  bool ring = true;
};
Instance coin(int n, const CoinShape& shape, std::uint64_t seed);
int coin_grid(int n, const CoinShape& shape);  // the grid side actually used

}  // namespace tsp
