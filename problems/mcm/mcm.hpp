// mcm.hpp — the matrix-chain problem (paper 002): dimensions p0..pn, A_t is p(t-1) × p(t);
// objective the minimum number of scalar multiplications of the product A1·A2···An;
// certificate a parenthesization such as ((A1(A2A3))A4), whose cost check() recomputes.
//
// Solvers work on points 0..n: the sub-chain A(a+1)..A(b) is the interval [a, b), and
//   M[a][a+1] = 0,   M[a][b] = min over a < c < b of M[a][c] + M[c][b] + p_a·p_c·p_b.
// The paper's chain length l is b - a; its m(i,j) is M[i-1][j] and its split k is c.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpgpu/problem.hpp"

namespace mcm {

inline constexpr std::int64_t kMaxN = std::int64_t{1} << 20;
inline constexpr std::int64_t kMaxDim = (std::int64_t{1} << 31) - 1;

struct Instance {
  std::vector<std::int64_t> p;  // n + 1 positive dimensions
  std::int64_t n() const { return std::int64_t(p.size()) - 1; }
};

struct Solution {
  std::string parenthesization;  // "A1" for one matrix, "((A1(A2A3))A4)" ...
};

// Why `x` is not a valid instance ("" when it is): 1 <= n <= kMaxN, 1 <= p_t <= kMaxDim.
std::string why_malformed(const Instance& x);

// Bounds, proved in problems/mcm/README.md. For every interval, M[a][b] <= (b-a-1)·min(p_a..p_b)·P²
// (P = max p): multiply every matrix into the smallest dimension first. So
//   cost_bound = P² · max over a < b of (b-a-1)·min(p_a..p_b)   bounds every M[a][b], and
//   split_bound = 2·cost_bound + P³                             bounds every candidate
// M[a][c] + M[c][b] + p_a·p_c·p_b a solver evaluates. Both saturate at 2^127.
unsigned __int128 cost_bound(const Instance& x);
unsigned __int128 split_bound(const Instance& x);
// Why split_bound(x) > limit, naming the bound and the limit (2^63 - 1 for int64 solvers, 2^53
// for exact doubles), or "" when it is not: the solvers' instance rule, checked by `dpgpu check`.
std::string split_bound_excess(const Instance& x, unsigned __int128 limit,
                               const std::string& limit_name);
// split_bound_excess against int64 (2^63 - 1): the rule of every solver with int64 costs.
std::string int64_excess(const Instance& x);
// Throws dpgpu::InputError with split_bound_excess's reason; `who` starts the message.
void require_split_bound(const Instance& x, unsigned __int128 limit, const std::string& who,
                         const std::string& limit_name);
// True when every M[a][b] fits 32 bits (cost_bound < 2^32): solvers may store 32-bit cells.
bool costs_fit_32_bits(const Instance& x);

// The parenthesization of [0, n) given split(a, b) = the c chosen for the interval [a, b)
// (called only for b - a >= 2). Iterative: chains of any depth.
std::string parenthesize(std::int64_t n,
                         const std::function<std::int64_t(std::int64_t, std::int64_t)>& split);
// The splits in preorder of the tree (root first, then the left subtree, then the right):
// what a device-side walk produces; n - 1 values for n >= 1.
std::string parenthesize_preorder(std::int64_t n, const std::vector<std::int64_t>& preorder_splits);

struct Cost {
  bool ok = false;
  std::int64_t cost = 0;
  std::string why;  // when !ok
};
// Parses a parenthesization of A1..An and recomputes its cost (exact; refuses overflow).
Cost cost_of(const Instance& x, const std::string& parenthesization);

// Split evaluations of the O(n³) DP: n(n² - 1)/6.
double split_evaluations(std::int64_t n);

struct Problem {
  static constexpr const char* name = "mcm";
  static constexpr const char* help =
      "matrix-chain product (paper 002): minimum scalar multiplications for A1..An; certificate "
      "the parenthesization";
  using Instance = mcm::Instance;
  using Solution = mcm::Solution;

  static dpgpu::Verdict check(const Instance& x, const Solution& s);  // recomputes the cost
  static double work(const Instance& x);           // n(n² - 1)/6 split evaluations
  static dpgpu::ValueMap dims(const Instance& x);  // n, p_max, cost_bits
  static std::vector<dpgpu::Generator<Instance>> generators();
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src);
};

}  // namespace mcm
