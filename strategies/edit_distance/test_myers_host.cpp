// The CPU model of the Myers pass, its prefix distances, and the solve (distance, and the
// script by Hirschberg's levels) over it, against the reference recurrence.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "dpgpu/test_seed.hpp"
#include "edit/edit.hpp"
#include "edit/generators.hpp"
#include "edit/reference.hpp"
#include "myers_batch.hpp"
#include "myers_pass.hpp"
#include "myers_solve.hpp"

namespace {

using namespace dpgpu::myers;

std::int64_t model_distance(const std::string& x, const std::string& y, bool reversed = false) {
  const Symbols s = encode(x, y);
  const std::vector<PassJob> jobs{{0, std::int64_t(x.size()), 0, std::int64_t(y.size()), reversed}};
  Columns c;
  CpuPassRunner(s).run(jobs, c, false);
  return c.distance[0];
}

TEST(MyersModel, DistanceAtWordBoundaries) {
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  for (std::int64_t n : {1, 2, 63, 64, 65, 127, 128, 129, 1000}) {
    for (std::int64_t m : {1, 5, 64, 300}) {
      const auto x = edit::random_pair(n, m, 1 + int(rng() % 5), rng());
      SCOPED_TRACE("seed " + std::to_string(seed) + " n " + std::to_string(n) + " m " +
                   std::to_string(m));
      EXPECT_EQ(model_distance(x.a, x.b), edit::reference_distance(x.a, x.b));
      const std::string ra(x.a.rbegin(), x.a.rend()), rb(x.b.rbegin(), x.b.rend());
      EXPECT_EQ(model_distance(x.a, x.b, true), edit::reference_distance(ra, rb));
    }
  }
}

TEST(MyersModel, PrefixDistancesAreEveryPrefixOfX) {
  const auto x = edit::mutated_pair(200, 4, 0.3, 5);
  const Symbols s = encode(x.a, x.b);
  const PassJob job{10, 150, 3, 90, false};
  Columns c;
  CpuPassRunner(s).run({job}, c, true);
  const auto d = prefix_distances(c, 0, job);
  for (std::int64_t i = 0; i <= job.x_len; ++i)
    ASSERT_EQ(d[std::size_t(i)],
              edit::reference_distance(x.a.substr(10, std::size_t(i)), x.b.substr(3, 90)))
        << i;
}

TEST(MyersModel, SymbolsOfXThatYLacksMatchNothing) {
  const Symbols s = encode("AXYA", "AB");
  EXPECT_EQ(s.sigma, 2);
  EXPECT_EQ(s.x, (std::vector<std::uint8_t>{0, 2, 2, 0}));
  EXPECT_EQ(model_distance("AXYA", "AB"), 3);
}

dpgpu::myers::Solved solve_on_model(const std::string& a, const std::string& b, bool script,
                                    std::int64_t leaf_cells) {
  MyersConfig c;
  c.script = script;
  c.leaf_cells = leaf_cells;
  return solve_over(a, b, c, [](const Symbols& s) { return std::make_unique<CpuPassRunner>(s); });
}

TEST(MyersSolve, DistanceAndScriptOnTheModel) {
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 30; ++t) {
    const auto n = std::int64_t(rng() % 700), m = std::int64_t(rng() % 700);
    const auto x = t % 2 ? edit::random_pair(n, m, 4, rng()) : edit::mutated_pair(n, 4, 0.2, rng());
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t));
    const auto d = edit::reference_distance(x.a, x.b);
    EXPECT_EQ(solve_on_model(x.a, x.b, false, 1).distance, d);
    const auto s = solve_on_model(x.a, x.b, true, 1 + std::int64_t(rng() % 2000));
    ASSERT_TRUE(s.script);
    auto v = edit::Problem::check(x, {*s.script});
    ASSERT_TRUE(v.ok) << v.message;
    EXPECT_EQ(v.objective, d);
    EXPECT_EQ(s.distance, d);
  }
}

TEST(MyersSolve, EmptyStrings) {
  EXPECT_EQ(solve_on_model("", "", true, 1).distance, 0);
  EXPECT_EQ(solve_on_model("abc", "", true, 1).distance, 3);
  const auto s = solve_on_model("", "abcd", true, 1);
  EXPECT_EQ(s.distance, 4);
  EXPECT_TRUE(edit::Problem::check({"", "abcd"}, {*s.script}).ok);
}

TEST(MyersBatch, EveryPairOnTheModelInBothShapes) {
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  edit::BatchInstance x;
  for (int k = 0; k < 40; ++k) {
    const auto p = edit::random_pair(std::int64_t(rng() % 300), std::int64_t(rng() % 300),
                                     1 + int(rng() % 4), rng());
    x.a.push_back(p.a);
    x.b.push_back(p.b);
  }
  auto model = [](const Symbols& s) { return std::make_unique<CpuPassRunner>(s); };
  for (bool cross : {false, true}) {
    x.cross = cross;
    const auto d = solve_batch_over(x, model);
    ASSERT_EQ(d.size(), x.pairs());
    for (std::size_t k = 0; k < d.size(); ++k)
      ASSERT_EQ(d[k], edit::reference_distance(x.a[x.a_of(k)], x.b[x.b_of(k)]))
          << "seed " << seed << " cross " << cross << " pair " << k;
  }
}

}  // namespace
