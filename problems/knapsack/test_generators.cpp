// Generators: deterministic per seed, true to their class definitions, checked parameters.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/draw.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/well_formed.hpp"

namespace {

using knapsack::Instance;
using knapsack::PisingerClass;

const PisingerClass kClasses[] = {PisingerClass::uncorrelated, PisingerClass::weakly_correlated,
                                  PisingerClass::strongly_correlated, PisingerClass::subset_sum};

Instance pisinger(PisingerClass c, std::int64_t n, std::int64_t range, std::uint64_t seed,
                  std::int64_t capacity = -1, double fraction = 0.5) {
  return knapsack::pisinger_instance(c, n, range, capacity, fraction, seed);
}

std::int64_t total(const std::vector<std::int64_t>& v) { return *knapsack::checked_sum(v); }

const dpgpu::GeneratorEntry& generator(const std::string& name) {
  auto* p = dpgpu::Registry::get().problem("knapsack");
  if (!p || !p->generator(name)) throw std::runtime_error("no generator " + name);
  return *p->generator(name);
}

TEST(KnapsackDraw, StaysInItsBoundsAndReachesBothEnds) {
  std::mt19937_64 rng(5);
  std::set<std::int64_t> seen;
  for (int k = 0; k < 2000; ++k) {
    const auto v = knapsack::draw_between(rng, -3, 3);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_EQ(knapsack::draw_between(rng, 9, 9), 9);
}

TEST(KnapsackGenerators, SameSeedSameInstanceOtherSeedAnother) {
  for (auto c : kClasses) {
    const Instance a = pisinger(c, 300, 1000, 7), b = pisinger(c, 300, 1000, 7),
                   other = pisinger(c, 300, 1000, 8);
    EXPECT_EQ(a.weight, b.weight) << to_string(c);
    EXPECT_EQ(a.value, b.value) << to_string(c);
    EXPECT_EQ(a.capacity, b.capacity) << to_string(c);
    EXPECT_NE(a.weight, other.weight) << to_string(c);
  }
  const Instance p = knapsack::paper2014_instance(300, 5000, -1, 3),
                 q = knapsack::paper2014_instance(300, 5000, -1, 3);
  EXPECT_EQ(p.weight, q.weight);
  EXPECT_EQ(p.value, q.value);
  EXPECT_NE(p.weight, knapsack::paper2014_instance(300, 5000, -1, 4).weight);
}

// A regression pin: the first items of one instance, as this code has always drawn them
// (std::mt19937_64 is fixed by the standard, the draw by draw.hpp). A change here changes
// every generated instance, and with them every recorded result.
TEST(KnapsackGenerators, PinnedOutput) {
  const Instance x = pisinger(PisingerClass::uncorrelated, 4, 1000, 1, 100);
  EXPECT_EQ(x.weight, (std::vector<std::int64_t>{134, 452, 351, 471}));
  EXPECT_EQ(x.value, (std::vector<std::int64_t>{137, 22, 912, 75}));
}

TEST(KnapsackGenerators, WeightsAreInOneToRAndCoverIt) {
  for (auto c : kClasses) {
    const Instance x = pisinger(c, 3000, 20, 11);
    EXPECT_EQ(*std::min_element(x.weight.begin(), x.weight.end()), 1) << to_string(c);
    EXPECT_EQ(*std::max_element(x.weight.begin(), x.weight.end()), 20) << to_string(c);
    EXPECT_EQ(knapsack::why_malformed(x), "");
  }
}

TEST(KnapsackGenerators, ValuesFollowTheClassDefinitions) {
  const std::int64_t R = 1000, tenth = 100;
  const Instance u = pisinger(PisingerClass::uncorrelated, 3000, R, 12);
  const Instance w = pisinger(PisingerClass::weakly_correlated, 3000, R, 12);
  const Instance s = pisinger(PisingerClass::strongly_correlated, 3000, R, 12);
  const Instance z = pisinger(PisingerClass::subset_sum, 3000, R, 12);
  bool weak_reaches_its_floor = false, uncorrelated_differs = false;
  for (std::size_t j = 0; j < 3000; ++j) {
    ASSERT_GE(u.value[j], 1);
    ASSERT_LE(u.value[j], R);
    uncorrelated_differs |= u.value[j] != u.weight[j];
    ASSERT_GE(w.value[j], std::max<std::int64_t>(1, w.weight[j] - tenth)) << j;
    ASSERT_LE(w.value[j], w.weight[j] + tenth) << j;
    weak_reaches_its_floor |= w.weight[j] <= tenth && w.value[j] == 1;
    ASSERT_EQ(s.value[j], s.weight[j] + tenth) << j;
    ASSERT_EQ(z.value[j], z.weight[j]) << j;
  }
  EXPECT_TRUE(uncorrelated_differs);
  EXPECT_TRUE(weak_reaches_its_floor);  // the clipping at 1 happens and is reachable
}

TEST(KnapsackGenerators, CapacityIsGivenOrAFractionOfTheTotalWeight) {
  for (auto c : kClasses) {
    const Instance half = pisinger(c, 500, 1000, 13);
    EXPECT_EQ(half.capacity, total(half.weight) / 2) << to_string(c);
    const Instance tenth = pisinger(c, 500, 1000, 13, -1, 0.1);
    EXPECT_EQ(tenth.capacity, static_cast<std::int64_t>(0.1 * double(total(tenth.weight))))
        << to_string(c);
    EXPECT_EQ(pisinger(c, 500, 1000, 13, 777).capacity, 777) << to_string(c);
    EXPECT_EQ(pisinger(c, 500, 1000, 13, 0).capacity, 0) << to_string(c);
    EXPECT_EQ(pisinger(c, 500, 1000, 13, -1, 1.0).capacity, total(half.weight)) << to_string(c);
  }
}

TEST(KnapsackGenerators, Paper2014WeightsAreUnderThirtyPercentOfTheCapacity) {
  EXPECT_EQ(knapsack::paper2014_max_weight(4), 1);
  EXPECT_EQ(knapsack::paper2014_max_weight(10), 2);  // 3 is not below 3.0
  EXPECT_EQ(knapsack::paper2014_max_weight(11), 3);  // 3 < 3.3
  EXPECT_EQ(knapsack::paper2014_max_weight(1000000000000), 299999999999);
  EXPECT_THROW(knapsack::paper2014_max_weight(3), std::invalid_argument);
  for (std::int64_t capacity : {4, 10, 11, 500, 12345}) {
    const Instance x = knapsack::paper2014_instance(1500, capacity, -1, 14);
    EXPECT_EQ(x.size(), 1500u);
    EXPECT_EQ(x.capacity, capacity);
    const auto top = knapsack::paper2014_max_weight(capacity);
    for (std::size_t j = 0; j < x.size(); ++j) {
      ASSERT_LT(10 * x.weight[j], 3 * capacity) << capacity;  // w < 0.3·C, exactly
      ASSERT_GE(x.weight[j], 1);
      ASSERT_GE(x.value[j], 1);
      ASSERT_LE(x.value[j], top);  // values under 30 % of C too, by default
    }
    if (top <= 150) {  // few enough weights to be sure the top one is drawn
      EXPECT_EQ(*std::max_element(x.weight.begin(), x.weight.end()), top) << capacity;
    }
  }
}

TEST(KnapsackGenerators, Paper2014ValueMaxSetsTheValueRange) {
  const Instance x = knapsack::paper2014_instance(2000, 100000, 5, 15);
  EXPECT_EQ(*std::min_element(x.value.begin(), x.value.end()), 1);
  EXPECT_EQ(*std::max_element(x.value.begin(), x.value.end()), 5);
  EXPECT_GT(*std::max_element(x.weight.begin(), x.weight.end()), 5);
}

TEST(KnapsackGenerators, BadArgumentsThrow) {
  EXPECT_THROW(pisinger(PisingerClass::uncorrelated, -1, 1000, 1), std::invalid_argument);
  EXPECT_THROW(pisinger(PisingerClass::uncorrelated, 10, 0, 1), std::invalid_argument);
  EXPECT_THROW(pisinger(PisingerClass::uncorrelated, 10, 1000, 1, -1, 1.5), std::invalid_argument);
  EXPECT_THROW(knapsack::paper2014_instance(10, 2, -1, 1), std::invalid_argument);
}

TEST(KnapsackGenerators, RegisteredSchemasDefaultsAndRanges) {
  for (const char* name :
       {"uncorrelated", "weakly_correlated", "strongly_correlated", "subset_sum"}) {
    auto& g = generator(name);
    auto p = g.schema.resolve({});
    EXPECT_EQ(p.integer("n"), 1000) << name;
    EXPECT_EQ(p.integer("R"), 1000) << name;
    EXPECT_EQ(p.integer("capacity"), -1) << name;
    EXPECT_DOUBLE_EQ(p.real("capacity_fraction"), 0.5) << name;
    EXPECT_THROW(g.schema.resolve({{"R", std::int64_t{0}}}), dpgpu::InputError) << name;
    EXPECT_THROW(g.schema.resolve({{"capacity_fraction", 1.5}}), dpgpu::InputError) << name;
    EXPECT_THROW(g.schema.resolve({{"capacity", std::int64_t{-2}}}), dpgpu::InputError) << name;
    EXPECT_THROW(g.schema.resolve({{"h", std::int64_t{1}}}), dpgpu::InputError) << name;
  }
  auto& paper = generator("paper2014");
  auto p = paper.schema.resolve({});
  EXPECT_EQ(p.integer("n"), 1500);
  EXPECT_EQ(p.integer("capacity"), 10000);
  EXPECT_EQ(p.integer("value_max"), -1);
  EXPECT_THROW(paper.schema.resolve({{"capacity", std::int64_t{3}}}), dpgpu::InputError);
}

TEST(KnapsackGenerators, RegisteredMakeNamesTheInstanceAndMatchesThePlainFunction) {
  auto& g = generator("strongly_correlated");
  auto x = g.make(g.schema.resolve({{"n", std::int64_t{50}}, {"capacity", std::int64_t{400}}}), 9);
  EXPECT_EQ(x.name, "strongly_correlated-n50-R1000-C400-s9");
  EXPECT_FALSE(x.known_optimum.has_value());
  EXPECT_EQ(std::get<std::int64_t>(x.dims.at("n")), 50);
  EXPECT_EQ(x.as<Instance>().weight,
            pisinger(PisingerClass::strongly_correlated, 50, 1000, 9, 400).weight);

  auto& paper = generator("paper2014");
  auto y = paper.make(paper.schema.resolve({{"capacity", std::int64_t{500}}}), 2);
  EXPECT_EQ(y.name, "paper2014-n1500-C500-s2");
  EXPECT_EQ(y.as<Instance>().value, knapsack::paper2014_instance(1500, 500, -1, 2).value);
  auto z = paper.make(
      paper.schema.resolve({{"capacity", std::int64_t{500}}, {"value_max", std::int64_t{1000}}}),
      2);
  EXPECT_EQ(z.name, "paper2014-n1500-C500-v1000-s2");
}

}  // namespace
