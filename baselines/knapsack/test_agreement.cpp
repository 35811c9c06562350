// All solvers agree with the brute-force reference on many small random instances of every
// generator, and with each other on larger ones.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "knapsack/draw.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/reference.hpp"
#include "test_support.hpp"

namespace {

using knapsack::Instance;
using knapsack::PisingerClass;
using knapsack::testing::expect_all_solvers_reach;

const PisingerClass kClasses[] = {PisingerClass::uncorrelated, PisingerClass::weakly_correlated,
                                  PisingerClass::strongly_correlated, PisingerClass::subset_sum};

TEST(KnapsackAgreement, PisingerClassesAgainstBruteForce) {
  std::mt19937_64 rng(1);  // draws the shapes; each instance has its own seed
  for (auto c : kClasses) {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const auto n = knapsack::draw_between(rng, 1, 14);
      const std::int64_t range = std::int64_t{10}
                                 << (2 * knapsack::draw_between(rng, 0, 3));  // 10 .. 640
      const double fraction = double(knapsack::draw_between(rng, 0, 10)) / 10;
      const Instance x = knapsack::pisinger_instance(c, n, range, -1, fraction, seed);
      expect_all_solvers_reach(
          x, knapsack::brute_force_optimum(x),
          fmt::format("{} n={} R={} C={} seed={}", to_string(c), n, range, x.capacity, seed));
    }
  }
}

TEST(KnapsackAgreement, Paper2014AgainstBruteForce) {
  std::mt19937_64 rng(2);
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    const auto n = knapsack::draw_between(rng, 1, 14);
    const auto capacity = knapsack::draw_between(rng, 4, 300);
    const auto value_max = seed % 3 == 0 ? std::int64_t{1000} : std::int64_t{-1};
    const Instance x = knapsack::paper2014_instance(n, capacity, value_max, seed);
    expect_all_solvers_reach(
        x, knapsack::brute_force_optimum(x),
        fmt::format("paper2014 n={} C={} value_max={} seed={}", n, capacity, value_max, seed));
  }
}

// Capacities around multiples of 64 exercise the OpenMP blocks' edges and the bit rows.
TEST(KnapsackAgreement, CapacitiesAroundWordEdges) {
  for (std::int64_t capacity : {1, 62, 63, 64, 65, 127, 128, 129}) {
    const Instance x = knapsack::pisinger_instance(PisingerClass::uncorrelated, 12, 60, capacity, 0,
                                                   40 + capacity);
    expect_all_solvers_reach(x, knapsack::brute_force_optimum(x), fmt::format("C={}", capacity));
  }
}

TEST(KnapsackAgreement, LargerInstancesAllSolversAgree) {
  for (auto c : kClasses) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const Instance x =
          knapsack::pisinger_instance(c, 60, 1000, -1, 0.3 + 0.2 * double(seed), seed);
      const auto expected = knapsack::cpu::dp(x).value;
      expect_all_solvers_reach(x, expected,
                               fmt::format("{} n=60 C={} seed={}", to_string(c), x.capacity, seed));
    }
  }
  const Instance paper =
      knapsack::paper2014_instance(1500, 500, -1, 5);  // the paper's profiling size
  expect_all_solvers_reach(paper, knapsack::cpu::dp(paper).value, "paper2014 n=1500 C=500");
}

}  // namespace
