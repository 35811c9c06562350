// The generators: sizes, determinism, the planted distance, mutated divergence bounds.
#include <gtest/gtest.h>

#include <random>

#include "dpgpu/registry.hpp"
#include "dpgpu/test_seed.hpp"
#include "edit/generators.hpp"
#include "edit/reference.hpp"

namespace {

TEST(EditGenerators, RandomIsTheLcsRandomPair) {
  const auto x = edit::random_pair(50, 70, 4, 3);
  EXPECT_EQ(x.a.size(), 50u);
  EXPECT_EQ(x.b.size(), 70u);
  EXPECT_EQ(x.a.find_first_not_of("ACGT"), std::string::npos);
  const auto again = edit::random_pair(50, 70, 4, 3);
  EXPECT_EQ(x.a, again.a);
  EXPECT_EQ(x.b, again.b);
}

TEST(EditGenerators, PlantedDistanceIsTheReferenceDistance) {
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 60; ++t) {
    const auto n = std::int64_t(rng() % 120);
    const auto d = std::int64_t(rng() % (n + 1));
    const double f = double(rng() % 5) / 4;
    const int k = 2 + int(rng() % 6);
    const auto p = edit::planted_pair(n, k, d, f, rng());
    SCOPED_TRACE("seed " + std::to_string(seed) + " n " + std::to_string(n) + " d " +
                 std::to_string(d) + " f " + std::to_string(f) + " k " + std::to_string(k));
    EXPECT_EQ(p.distance, d);
    EXPECT_EQ(edit::reference_distance(p.instance.a, p.instance.b), d);
    EXPECT_EQ(std::int64_t(p.instance.a.size()), n);
  }
}

TEST(EditGenerators, PlantedRefusesMoreSubstitutionsThanPositions) {
  EXPECT_THROW(edit::planted_pair(3, 4, 5, 0.0, 1), std::invalid_argument);
  EXPECT_NO_THROW(edit::planted_pair(3, 4, 5, 1.0, 1));
  EXPECT_THROW(edit::planted_pair(3, 1, 1, 0.0, 1), std::invalid_argument);
}

TEST(EditGenerators, MutatedStaysWithinItsEdits) {
  for (std::uint64_t s = 1; s <= 20; ++s) {
    const auto x = edit::mutated_pair(200, 4, 0.1, s);
    EXPECT_EQ(x.a.size(), 200u);
    const auto d = edit::reference_distance(x.a, x.b);
    EXPECT_LE(d, 20);
    EXPECT_GE(d, 1) << "20 random edits leave the string unchanged only by rare luck";
  }
  const auto same = edit::mutated_pair(100, 4, 0.0, 5);
  EXPECT_EQ(same.a, same.b);
}

TEST(EditGenerators, RegisteredPlantedReportsItsDistanceAndRefusesBadParameters) {
  auto* p = dpgpu::Registry::get().problem("edit");
  ASSERT_NE(p, nullptr);
  auto* g = p->generator("planted");
  ASSERT_NE(g, nullptr);
  auto params = g->schema.resolve({{"n", std::int64_t{100}}, {"distance", std::int64_t{7}}});
  auto inst = g->make(params, 11);
  ASSERT_TRUE(inst.known_optimum.has_value());
  EXPECT_EQ(*inst.known_optimum, 7);
  EXPECT_THROW(
      g->schema.resolve(
          {{"n", std::int64_t{3}}, {"distance", std::int64_t{9}}, {"insert_fraction", 0.0}}),
      std::exception);
}

}  // namespace
