// The reference distance and both script builders against small known answers and each other.
#include <gtest/gtest.h>

#include <random>

#include "dpgpu/test_seed.hpp"
#include "edit/edit.hpp"
#include "edit/generators.hpp"
#include "edit/reference.hpp"

namespace {

TEST(EditReference, KnownDistances) {
  EXPECT_EQ(edit::reference_distance("kitten", "sitting"), 3);
  EXPECT_EQ(edit::reference_distance("sitting", "kitten"), 3);
  EXPECT_EQ(edit::reference_distance("", "abc"), 3);
  EXPECT_EQ(edit::reference_distance("abc", ""), 3);
  EXPECT_EQ(edit::reference_distance("", ""), 0);
  EXPECT_EQ(edit::reference_distance("flaw", "lawn"), 2);
  EXPECT_EQ(edit::reference_distance("abc", "abc"), 0);
  EXPECT_EQ(edit::reference_distance("ab", "ba"), 2);
}

// Both scripts pass the check with the reference's distance as their cost.
void expect_optimal_scripts(const edit::Instance& x) {
  const auto d = edit::reference_distance(x.a, x.b);
  for (const auto& s :
       {edit::reference_script(x.a, x.b), edit::hirschberg_script(x.a, x.b, {}, 16)}) {
    auto v = edit::Problem::check(x, {s});
    ASSERT_TRUE(v.ok) << v.message << " for " << x.a << " / " << x.b;
    EXPECT_EQ(v.objective, d) << x.a << " / " << x.b;
  }
}

TEST(EditReference, ScriptsAreOptimalOnSmallCases) {
  expect_optimal_scripts({"kitten", "sitting"});
  expect_optimal_scripts({"", "abc"});
  expect_optimal_scripts({"abc", ""});
  expect_optimal_scripts({"", ""});
  expect_optimal_scripts({"a", "bab"});
  expect_optimal_scripts({"x", "abc"});
}

TEST(EditReference, ScriptsAreOptimalOnRandomPairs) {
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 40; ++t) {
    const auto n = std::int64_t(rng() % 90), m = std::int64_t(rng() % 90);
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t));
    expect_optimal_scripts(edit::random_pair(n, m, 2 + int(rng() % 4), rng()));
    expect_optimal_scripts(edit::mutated_pair(n, 4, 0.2, rng()));
  }
}

TEST(EditReference, HirschbergOnALongerPairMatchesTheDistance) {
  const auto x = edit::mutated_pair(3000, 4, 0.3, 7);
  const auto s = edit::hirschberg_script(x.a, x.b);
  auto v = edit::Problem::check(x, {s});
  ASSERT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, edit::reference_distance(x.a, x.b));
}

}  // namespace
