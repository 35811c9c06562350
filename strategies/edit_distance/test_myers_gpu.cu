// gpu.myers on the GPU against the reference recurrence and the CPU model: distances at word,
// stripe and group boundaries, scripts rechecked, and one small batch for the sanitizers.
// Skipped without a usable GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "dpgpu/context.hpp"
#include "dpgpu/test_seed.hpp"
#include "edit/edit.hpp"
#include "edit/generators.hpp"
#include "edit/reference.hpp"
#include "lcs/reference.hpp"
#include "lcs_batch_gpu.hpp"
#include "myers_batch.hpp"
#include "myers_gpu.hpp"
#include "require_device.hpp"

namespace {

using namespace dpgpu::myers;

MyersResult run(const edit::Instance& x, MyersConfig c) {
  dpgpu::Context ctx(dpgpu::Backend::Gpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
  ctx.begin();
  auto r = solve(x.a, x.b, c, ctx);
  ctx.end();
  return r;
}

TEST(MyersGpu, DistanceAtBoundariesForEveryWidth) {
  REQUIRE_DEVICE();
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  for (int w : {1, 2, 4})
    for (std::int64_t n : {1, 63, 64, 65, 200, 2047, 2048, 2049, 5000})
      for (std::int64_t m : {1, 31, 33, 100, 3000}) {
        const auto x = edit::random_pair(n, m, 1 + int(rng() % 6), rng());
        MyersConfig c;
        c.words_per_thread = w;
        SCOPED_TRACE("seed " + std::to_string(seed) + " W " + std::to_string(w) + " n " +
                     std::to_string(n) + " m " + std::to_string(m));
        EXPECT_EQ(run(x, c).distance, edit::reference_distance(x.a, x.b));
      }
}

TEST(MyersGpu, ScriptsAreRecheckedAndOptimal) {
  REQUIRE_DEVICE();
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 12; ++t) {
    const auto n = std::int64_t(1 + rng() % 6000), m = std::int64_t(1 + rng() % 6000);
    const auto x = t % 2 ? edit::random_pair(n, m, 4, rng()) : edit::mutated_pair(n, 4, 0.1, rng());
    MyersConfig c;
    c.script = true;
    c.leaf_cells = 1 + std::int64_t(rng() % 5000);
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t));
    const auto r = run(x, c);
    ASSERT_TRUE(r.script);
    const auto v = edit::Problem::check(x, {*r.script});
    ASSERT_TRUE(v.ok) << v.message;
    EXPECT_EQ(v.objective, edit::reference_distance(x.a, x.b));
  }
}

TEST(MyersGpu, PlantedLongerPair) {
  REQUIRE_DEVICE();
  const auto p = edit::planted_pair(100000, 4, 2500, 0.5, 3);
  EXPECT_EQ(run(p.instance, MyersConfig{}).distance, p.distance);
}

TEST(MyersGpu, SmallBatchForSanitizers) {
  REQUIRE_DEVICE();
  const auto x = edit::mutated_pair(3000, 4, 0.2, 8);
  MyersConfig c;
  c.script = true;
  c.leaf_cells = 4096;
  const auto r = run(x, c);
  EXPECT_TRUE(edit::Problem::check(x, {*r.script}).ok);
  EXPECT_EQ(r.distance, edit::reference_distance(x.a, x.b));
  EXPECT_EQ(run({"", "abc"}, MyersConfig{}).distance, 3);
}

TEST(MyersGpu, BatchOfPairsAndCrossEveryPairEqualsTheReference) {
  REQUIRE_DEVICE();
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  edit::BatchInstance x;
  for (int k = 0; k < 300; ++k) {
    const std::int64_t n = k % 50 == 0 ? 0 : std::int64_t(rng() % 3000);
    const auto p = edit::mutated_pair(n, 4, 0.05 * double(rng() % 10), rng());
    x.a.push_back(p.a);
    x.b.push_back(p.b);
  }
  for (int w : {1, 2}) {
    MyersConfig c;
    c.words_per_thread = w;
    c.thread_words = w == 1 ? 16 : 0;  // short pairs one per thread, then every pair as stripes
    for (bool cross : {false, true}) {
      x.cross = cross;
      dpgpu::Context ctx(dpgpu::Backend::Gpu,
                         std::chrono::steady_clock::now() + std::chrono::hours(1));
      ctx.begin();
      const auto d = solve_batch(x, c, ctx);
      ctx.end();
      ASSERT_EQ(d.size(), x.pairs());
      const std::size_t step = cross ? 97 : 1;  // cross: 90,000 pairs; a spread sample
      for (std::size_t k = 0; k < d.size(); k += step)
        ASSERT_EQ(d[k], edit::reference_distance(x.a[x.a_of(k)], x.b[x.b_of(k)]))
            << "seed " << seed << " W " << w << " thread_words " << c.thread_words << " cross "
            << cross << " pair " << k;
    }
  }
}

// gpu.myers's LCS lengths of every pair of `x`, in one timed solve.
std::vector<std::int32_t> lcs_lengths(const edit::BatchInstance& x) {
  dpgpu::Context ctx(dpgpu::Backend::Gpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
  ctx.begin();
  auto d = solve_lcs_batch(x, ctx);
  ctx.end();
  return d;
}

TEST(LcsBatchGpu, EveryPairEqualsTheLcsReference) {
  REQUIRE_DEVICE();
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  edit::BatchInstance x;
  for (int k = 0; k < 500; ++k) {
    const std::int64_t n = k % 60 == 0 ? 0 : std::int64_t(rng() % 1025);
    const auto p = edit::mutated_pair(n, 1 + int(rng() % 8), 0.3, rng());
    x.a.push_back(p.a.substr(0, 1024));
    x.b.push_back(p.b);
  }
  const auto d = lcs_lengths(x);
  ASSERT_EQ(d.size(), x.pairs());
  for (std::size_t k = 0; k < d.size(); ++k)
    ASSERT_EQ(d[k], lcs::reference_length(x.a[k], x.b[k])) << "seed " << seed << " pair " << k;
}

// Under memcheck and racecheck (sanitize-myers.txt): short pairs one per thread, longer ones
// as stripes, and empty strings on either side.
TEST(LcsBatchGpu, SmallBatchForSanitizers) {
  REQUIRE_DEVICE();
  edit::BatchInstance x;
  for (int k = 0; k < 24; ++k) {
    const auto p = edit::mutated_pair(k < 2 ? 0 : 40 * k, 4, 0.2, std::uint64_t(k));
    x.a.push_back(k == 1 ? std::string() : p.a);
    x.b.push_back(p.b);
  }
  const auto d = lcs_lengths(x);
  ASSERT_EQ(d.size(), x.pairs());
  for (std::size_t k = 0; k < d.size(); ++k)
    EXPECT_EQ(d[k], lcs::reference_length(x.a[k], x.b[k])) << "pair " << k;
}

}  // namespace
