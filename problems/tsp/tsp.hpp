// tsp.hpp — the travelling salesman problem, symmetric and asymmetric, over a full n×n
// integer distance matrix (whatever made it: a TSPLIB file, a generator, a test).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpgpu/problem.hpp"

namespace tsp {

// Limits every maker enforces, so that solvers may add up a tour in int64 without checks:
// n · kMaxWeight < 2^63 with room to spare.
inline constexpr int kMaxCities = 20000;                       // a 3.2 GB matrix
inline constexpr std::int64_t kMaxWeight = 1'000'000'000'000;  // 10^12 per arc

struct Point {
  double x = 0, y = 0;
};

struct Instance {
  int n = 0;                       // cities 0..n-1, n >= 1
  std::vector<std::int64_t> dist;  // row-major n×n: dist[i*n+j] = cost of arc i→j
  bool symmetric = false;          // dist[i][j] == dist[j][i] for every i != j (computed)
  std::string name, comment;
  std::vector<Point> coords;     // empty, or one per city when the instance has them
  std::string edge_weight_type;  // how dist was made: "EXPLICIT", "EUC_2D", ... (informational)
  // The optimal closed-tour cost where it is known before any solve: from OPTIMA.tsv next to
  // a TSPLIB file, or computed by a generator (Held-Karp, n <= its optimum_max_n) or by the
  // planner for a search that needs it (reference_optimum). Search
  // solvers start from it (search_bound.hpp, initial_ub: optimal); it is never computed
  // inside a timed solve.
  std::optional<std::int64_t> optimum;

  std::int64_t arc(int i, int j) const { return dist[static_cast<std::size_t>(i) * n + j]; }
};

// The shape every maker checks: 1 <= n <= kMaxCities, dist has n·n entries, off-diagonal
// arcs in [0, kMaxWeight], the diagonal in [-kMaxWeight, kMaxWeight] (a tour never uses it).
// Throws std::invalid_argument naming the first fault; sets `symmetric`.
Instance make_instance(int n, std::vector<std::int64_t> dist, std::string name = {});

// True when dist[i][j] == dist[j][i] for all i != j.
bool is_symmetric(int n, const std::vector<std::int64_t>& dist);

// An upper bound on the cost of any path or tour (each city leaves at most once): the sum
// over rows of the largest off-diagonal arc. Solvers use it to pick 32-bit cells.
std::int64_t cost_upper_bound(const Instance& x);

struct Solution {
  std::vector<std::int32_t> tour;  // a permutation of 0..n-1; the tour returns to tour[0]
};

struct Problem {
  static constexpr const char* name = "tsp";
  static constexpr const char* file_kinds =
      "tsplib";  // file_kind.hpp: others are refused by content
  static constexpr const char* help =
      "travelling salesman tour (symmetric or asymmetric), full distance matrix";
  using Instance = tsp::Instance;
  using Solution = tsp::Solution;

  // Valid when the tour visits every city exactly once; the objective is the closed tour's
  // cost, return arc included (0 for n = 1).
  static dpgpu::Verdict check(const Instance& x, const Solution& s);
  // Held-Karp arc relaxations with city 0 fixed, m = n - 1 other cities:
  //   m(m-1)·2^(m-2)  (one per subset S, last city j ∈ S, predecessor k ∈ S \ {j}, |S| >= 2)
  //   + m first arcs from city 0 + m closing arcs back to it.
  static double work(const Instance& x);
  static dpgpu::ValueMap dims(const Instance& x);  // n
  // The optimum by Held-Karp (reference.hpp) when n <= kDefaultOptimumMaxN, else nullopt: the
  // planner's way to an optimum for a file that OPTIMA.tsv does not list.
  static std::optional<std::int64_t> reference_optimum(const Instance& x);
  static std::vector<dpgpu::Generator<Instance>> generators();
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src);
};

// The cost of the closed tour, without checking that it is a permutation (solvers use it).
std::int64_t tour_cost(const Instance& x, const std::vector<std::int32_t>& tour);

}  // namespace tsp
