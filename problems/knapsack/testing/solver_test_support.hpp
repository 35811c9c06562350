// solver_test_support.hpp — what tests of knapsack solvers hold them to: a plain CPU DP, named
// random instances of every generator, the edge cases, instances that need 64-bit cells, and a
// check of value plus certificate. Test-only; header-only; no CUDA. The GPU solvers' shared
// suite (gpu_solver_suite.hpp) is built on it.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/test_seed.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/knapsack.hpp"

namespace knapsack::gpu_test {

// Optimum by the textbook one-array DP (int64 cells, capacities from high to low).
inline std::int64_t reference_optimum(const Instance& x) {
  std::vector<std::int64_t> best(std::size_t(x.capacity) + 1, 0);
  for (std::size_t j = 0; j < x.size(); ++j) {
    const std::int64_t w = x.weight[j], v = x.value[j];
    for (std::int64_t c = x.capacity; c >= w; --c)
      best[std::size_t(c)] = std::max(best[std::size_t(c)], best[std::size_t(c - w)] + v);
  }
  return best[std::size_t(x.capacity)];
}

using dpgpu::base_seed;  // $DPGPU_TEST_SEED or fresh (dpgpu/test_seed.hpp)

struct Named {
  std::string name;
  Instance x;
};

inline std::string describe(const Instance& x) {
  std::string s =
      "n=" + std::to_string(x.size()) + " C=" + std::to_string(x.capacity) + " items(w,v)=[";
  for (std::size_t j = 0; j < std::min<std::size_t>(x.size(), 12); ++j)
    s += (j ? " " : "") + std::string("(") + std::to_string(x.weight[j]) + "," +
         std::to_string(x.value[j]) + ")";
  return s + (x.size() > 12 ? " ...]" : "]");
}

inline Instance make(std::int64_t capacity,
                     std::vector<std::pair<std::int64_t, std::int64_t>> weight_value) {
  Instance x;
  x.capacity = capacity;
  for (auto [w, v] : weight_value) {
    x.weight.push_back(w);
    x.value.push_back(v);
  }
  return x;
}

// Random instances of every generator, small enough for a CPU DP in a test; sizes that are
// not multiples of any block. Pisinger classes: n in [1, max_n], R in [1, max_range], capacity
// a random fraction (up to 0.9) of the total weight; paper2014: capacity in [4, max_capacity].
inline std::vector<Named> random_instances(std::uint64_t seed, int per_generator = 3,
                                           std::int64_t max_n = 120, std::int64_t max_range = 3000,
                                           std::int64_t max_capacity = 30000) {
  std::vector<Named> out;
  std::mt19937_64 rng(seed);
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const PisingerClass classes[] = {PisingerClass::uncorrelated, PisingerClass::weakly_correlated,
                                   PisingerClass::strongly_correlated, PisingerClass::subset_sum};
  for (int k = 0; k < per_generator; ++k) {
    for (auto cls : classes) {
      const std::int64_t n = pick(1, max_n), range = pick(1, max_range);
      const std::uint64_t s = rng();
      const double fraction = std::uniform_real_distribution<double>(0.0, 0.9)(rng);
      out.push_back({std::string(to_string(cls)) + " n=" + std::to_string(n) +
                         " R=" + std::to_string(range) + " fraction=" + std::to_string(fraction) +
                         " seed=" + std::to_string(s),
                     pisinger_instance(cls, n, range, -1, fraction, s)});
    }
    const std::int64_t n = pick(1, 2 * max_n), capacity = pick(4, max_capacity);
    const std::uint64_t s = rng();
    out.push_back({"paper2014 n=" + std::to_string(n) + " C=" + std::to_string(capacity) +
                       " seed=" + std::to_string(s),
                   paper2014_instance(n, capacity, -1, s)});
  }
  return out;
}

inline std::vector<Named> edge_instances() {
  return {
      {"one item that fits", make(10, {{7, 5}})},
      {"one item of weight C", make(10, {{10, 5}})},
      {"one item above C", make(10, {{11, 5}})},
      {"one item, C = 0", make(0, {{1, 5}})},
      {"C = 0 with zero-weight items", make(0, {{0, 3}, {1, 9}, {0, 4}, {0, 0}})},
      {"all weights above C", make(5, {{6, 1}, {7, 2}, {100, 3}})},
      {"all values zero", make(50, {{3, 0}, {5, 0}, {50, 0}})},
      {"weights equal to C", make(37, {{37, 5}, {37, 9}, {37, 2}})},
      {"zero weights", make(20, {{0, 1}, {0, 2}, {25, 100}, {0, 3}})},
      {"C = 1", make(1, {{1, 4}, {1, 6}, {2, 100}})},
      {"C = 31 (one bit word)", make(31, {{16, 10}, {15, 10}, {31, 19}, {1, 1}})},
      {"C = 32", make(32, {{16, 10}, {16, 10}, {32, 19}, {1, 1}})},
      {"no items", make(100, {})},
      {"mixed, heavier than C first",
       make(1000, {{2000, 1}, {500, 10}, {501, 11}, {499, 9}, {1000, 20}})},
  };
}

// Instances whose optimum needs 64-bit cells (total value above 2^31 - 1).
inline std::vector<Named> int64_instances(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Named> out;
  for (int k = 0; k < 3; ++k) {
    Instance x;
    x.capacity = std::int64_t(rng() % 5000) + 100;
    const int n = int(rng() % 60) + 2;
    for (int j = 0; j < n; ++j) {
      x.weight.push_back(std::int64_t(rng() % std::uint64_t(x.capacity)) + 1);
      x.value.push_back(std::int64_t(rng() % (std::uint64_t{1} << 40)) + (std::int64_t{1} << 31));
    }
    out.push_back(
        {"int64 values n=" + std::to_string(n) + " C=" + std::to_string(x.capacity), std::move(x)});
  }
  return out;
}

// The value is the optimum and, when there is a certificate, check() accepts it at that value.
inline void expect_optimal(const Instance& x, std::int64_t value,
                           const std::optional<std::vector<std::int32_t>>& items, bool want_items,
                           const std::string& what) {
  const std::int64_t expected = reference_optimum(x);
  EXPECT_EQ(value, expected) << what << "\n  instance: " << describe(x)
                             << "\n  seed: " << base_seed();
  if (!want_items) {
    EXPECT_FALSE(items.has_value()) << what << ": reconstruct=false but a certificate came back";
    return;
  }
  ASSERT_TRUE(items.has_value()) << what << ": no certificate";
  const auto verdict = Problem::check(x, Solution{*items});
  EXPECT_TRUE(verdict.ok) << what << ": certificate rejected: " << verdict.message
                          << "\n  instance: " << describe(x);
  EXPECT_EQ(verdict.objective, value)
      << what << ": the chosen items are not worth the reported value"
      << "\n  instance: " << describe(x) << "\n  seed: " << base_seed();
}

}  // namespace knapsack::gpu_test
