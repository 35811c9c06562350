// check(), dims(), work(), well-formedness and the brute-force reference.
#include <gtest/gtest.h>

#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack/reference.hpp"
#include "knapsack/well_formed.hpp"

namespace {

using knapsack::Instance;
using knapsack::Problem;

// The textbook example: capacity 50; the best is items 1 and 2 (value 220, weight 50).
Instance textbook() { return {50, {60, 100, 120}, {10, 20, 30}}; }

TEST(KnapsackCheck, ScoresAFeasibleSelectionByItsValue) {
  auto v = Problem::check(textbook(), {{2, 1}});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 220);
  v = Problem::check(textbook(), {{0}});
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.objective, 60);
}

TEST(KnapsackCheck, EmptySelectionIsWorthZero) {
  auto v = Problem::check(textbook(), {});
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.objective, 0);
}

TEST(KnapsackCheck, RejectsOverweightSelection) {
  auto v = Problem::check(textbook(), {{0, 1, 2}});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("weigh 60"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("capacity 50"), std::string::npos) << v.message;
}

TEST(KnapsackCheck, RejectsAnItemChosenTwice) {
  // Item 0 twice weighs 20 <= 50: only distinctness makes it wrong.
  auto v = Problem::check(textbook(), {{0, 2, 0}});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("item 0 is chosen twice"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("entries 0 and 2"), std::string::npos) << v.message;
}

TEST(KnapsackCheck, RejectsIndicesOutOfRange) {
  for (std::int32_t bad : {-1, 3, 1000}) {
    auto v = Problem::check(textbook(), {{1, bad}});
    EXPECT_FALSE(v.ok) << bad;
    EXPECT_NE(v.message.find("names item " + std::to_string(bad)), std::string::npos) << v.message;
  }
}

TEST(KnapsackCheck, RejectsAMalformedInstance) {
  Instance x = textbook();
  x.weight[1] = -20;
  auto v = Problem::check(x, {{1}});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("item 1 has negative weight"), std::string::npos) << v.message;
}

TEST(KnapsackWellFormed, NamesEachFault) {
  EXPECT_EQ(knapsack::why_malformed(textbook()), "");
  EXPECT_NE(knapsack::why_malformed({5, {1, 2}, {1}}).find("2 values but 1 weights"),
            std::string::npos);
  EXPECT_NE(knapsack::why_malformed({-1, {}, {}}).find("negative capacity"), std::string::npos);
  EXPECT_NE(knapsack::why_malformed({5, {1, -2}, {1, 1}}).find("item 1 has negative value"),
            std::string::npos);
  const std::int64_t big = std::int64_t{1} << 62;
  EXPECT_NE(knapsack::why_malformed({5, {big, big, big}, {1, 1, 1}}).find("total value"),
            std::string::npos);
  EXPECT_NE(knapsack::why_malformed({5, {1, 1}, {big, big}}).find("total weight"),
            std::string::npos);
  EXPECT_EQ(knapsack::why_malformed({5, {big, big - 1}, {big, big - 1}}),
            "");  // totals 2^63 - 1 exactly
}

TEST(KnapsackProblem, DimsAndWork) {
  auto d = Problem::dims(textbook());
  EXPECT_EQ(std::get<std::int64_t>(d.at("n")), 3);
  EXPECT_EQ(std::get<std::int64_t>(d.at("capacity")), 50);
  EXPECT_EQ(d.size(), 2u);
  EXPECT_DOUBLE_EQ(Problem::work(textbook()), 3.0 * 51.0);
  EXPECT_DOUBLE_EQ(Problem::work({0, {7}, {0}}), 1.0);
}

TEST(KnapsackProblem, IsRegisteredWithItsGeneratorsAndCheck) {
  auto* p = dpgpu::Registry::get().problem("knapsack");
  ASSERT_NE(p, nullptr);
  std::vector<std::string> names;
  for (auto& g : p->generators) names.push_back(g.name);
  EXPECT_EQ(names, (std::vector<std::string>{"uncorrelated", "weakly_correlated",
                                             "strongly_correlated", "subset_sum", "paper2014"}));
  auto x = dpgpu::erase_instance<Problem>({"textbook", textbook(), 220});
  dpgpu::AnyOutcome out;
  out.objective = 220;
  out.solution = std::make_shared<const knapsack::Solution>(knapsack::Solution{{1, 2}});
  auto verdict = p->check(x, out);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->ok);
  EXPECT_EQ(verdict->objective, 220);
  EXPECT_DOUBLE_EQ(x.work, 153.0);
}

TEST(KnapsackReference, BruteForceOnHandMadeInstances) {
  EXPECT_EQ(knapsack::brute_force_optimum(textbook()), 220);
  EXPECT_EQ(knapsack::brute_force_optimum({0, {5, 6}, {1, 0}}),
            6);  // weightless item fits capacity 0
  EXPECT_EQ(knapsack::brute_force_optimum({10, {}, {}}), 0);
  EXPECT_EQ(knapsack::brute_force_optimum({4, {3, 3, 5}, {2, 2, 3}}), 6);  // two small beat one big
  EXPECT_THROW(knapsack::brute_force_optimum(
                   {1, std::vector<std::int64_t>(25, 1), std::vector<std::int64_t>(25, 1)}),
               std::invalid_argument);
}

}  // namespace
