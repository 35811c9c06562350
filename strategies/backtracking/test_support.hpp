// test_support.hpp — instances and references shared by the backtracking tests: the paper's
// ATSP classes (coin, crane, tsmat, plus amat, tmat) and random matrices with many ties, with
// their optimum from Held-Karp and their node count from cpu.dfs at that bound.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dfs.hpp"
#include "tsp/atsp_classes.hpp"
#include "tsp/generators.hpp"
#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"

namespace bt_test {

struct Kind {
  std::string name;
  std::function<tsp::Instance(int n, std::uint64_t seed)> make;
};

inline std::vector<Kind> kinds() {
  return {
      {"coin", [](int n, std::uint64_t s) { return tsp::coin(n, tsp::CoinShape{}, s); }},
      {"crane", [](int n, std::uint64_t s) { return tsp::crane(n, tsp::CraneShape{}, s); }},
      {"tsmat", [](int n, std::uint64_t s) { return tsp::tsmat(n, 0, tsp::kMatrixClassMax, s); }},
      {"amat", [](int n, std::uint64_t s) { return tsp::amat(n, 0, tsp::kMatrixClassMax, s); }},
      {"tmat", [](int n, std::uint64_t s) { return tsp::tmat(n, 0, tsp::kMatrixClassMax, s); }},
      {"ties",
       [](int n, std::uint64_t s) {
         return tsp::random_matrix(n, 0, 3, s);
       }},  // zero arcs, many ties
      {"wide",
       [](int n, std::uint64_t s) {
         return tsp::random_matrix(n, 0, tsp::kMaxWeight / 64, s);
       }},  // int64
  };
}

struct Reference {
  std::int64_t optimum;  // Held-Karp
  std::uint64_t nodes;   // cpu.dfs with the optimal bound
  // cpu.dfs's tour cost at that bound: the optimum, or tsp::kNoBound when every optimal tour
  // has a proper prefix costing the optimum already (zero arcs after it; the rule of
  // search_bound.hpp never generates children of such a prefix, so no search finds it).
  std::int64_t found;
};

inline Reference reference(const tsp::Instance& x) {
  const std::int64_t opt = tsp::cpu::held_karp(x).cost;
  const auto r = tsp::cpu::dfs(x, opt);
  return {opt, r.nodes, r.cost};
}

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace bt_test
