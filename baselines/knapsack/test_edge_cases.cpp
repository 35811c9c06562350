// Edge cases every solver must get right, each with its optimum worked out by hand.
#include <gtest/gtest.h>

#include "knapsack/reference.hpp"
#include "test_support.hpp"

namespace {

using knapsack::Instance;
using knapsack::testing::expect_all_solvers_reach;

TEST(KnapsackEdgeCases, NoItems) { expect_all_solvers_reach({100, {}, {}}, 0, "no items"); }

TEST(KnapsackEdgeCases, OneItemThatFitsAndOneThatDoesNot) {
  expect_all_solvers_reach({10, {7}, {10}}, 7, "fits exactly");
  expect_all_solvers_reach({9, {7}, {10}}, 0, "one unit too heavy");
}

TEST(KnapsackEdgeCases, CapacityZeroTakesOnlyWeightlessItems) {
  expect_all_solvers_reach({0, {5, 3, 8}, {1, 0, 2}}, 3, "capacity 0");
  expect_all_solvers_reach({0, {5, 8}, {1, 2}}, 0, "capacity 0, nothing weightless");
}

TEST(KnapsackEdgeCases, EveryWeightAboveTheCapacity) {
  expect_all_solvers_reach({5, {10, 20, 30}, {6, 7, 100}}, 0, "all too heavy");
}

TEST(KnapsackEdgeCases, ZeroValueItemsAreNeverNeeded) {
  const Instance x{10, {0, 0, 4, 0}, {1, 2, 3, 0}};
  expect_all_solvers_reach(x, 4, "zero values");
  expect_all_solvers_reach({10, {0, 0}, {1, 2}}, 0, "only zero values");
}

TEST(KnapsackEdgeCases, DuplicateItems) {
  // Ten copies of (value 3, weight 4) in capacity 18: four fit, worth 12.
  expect_all_solvers_reach({18, std::vector<std::int64_t>(10, 3), std::vector<std::int64_t>(10, 4)},
                           12, "ten copies");
  // Equal ratios everywhere: the bound is never strict, branch and bound must still finish.
  expect_all_solvers_reach({23, {2, 2, 4, 4, 6, 6, 8, 8}, {2, 2, 4, 4, 6, 6, 8, 8}}, 22,
                           "subset sum, no exact fill");
}

TEST(KnapsackEdgeCases, EverythingFits) {
  expect_all_solvers_reach({1000, {1, 2, 3, 4}, {10, 20, 30, 40}}, 10, "all fit");
}

TEST(KnapsackEdgeCases, GreedyByRatioIsNotOptimal) {
  // Ratio order takes item 0 (ratio 2) and then nothing else fits; items 1 and 2 are better.
  expect_all_solvers_reach({10, {12, 9, 9}, {6, 5, 5}}, 18, "greedy trap");
}

TEST(KnapsackEdgeCases, ValuesBeyondThirtyTwoBits) {
  // Totals above 2^31 make the DPs use 64-bit cells.
  const std::int64_t big = std::int64_t{3} << 30;
  const Instance x{7, {big, big, big + 1, 5}, {3, 4, 4, 1}};
  EXPECT_FALSE(knapsack::cpu::values_fit_32_bits(x));
  expect_all_solvers_reach(x, knapsack::brute_force_optimum(x), "64-bit cells");
  EXPECT_EQ(knapsack::brute_force_optimum(x), 2 * big + 1);
}

TEST(KnapsackEdgeCases, HugeWeightsAndCapacityForBranchAndBound) {
  // A capacity no DP could hold: branch and bound alone, sums near 2^62.
  const std::int64_t c = std::int64_t{1} << 61;
  const Instance x{c, {10, 9, 8, 1}, {c / 2 + 1, c / 2, c / 2, 1}};
  knapsack::testing::expect_optimal(x, knapsack::cpu::branch_bound(x), 17,
                                    "huge weights");  // items 1 and 2 fill it exactly
}

}  // namespace
