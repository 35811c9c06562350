// The ATSP class reconstructions (atsp_classes.hpp): determinism, the properties that
// define each class, the optimum recorded at generation, registration.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "dpgpu/registry.hpp"
#include "tsp/atsp_classes.hpp"
#include "tsp/reference.hpp"

namespace {

using tsp::Instance;

bool metric(const Instance& x) {
  for (int i = 0; i < x.n; ++i)
    for (int j = 0; j < x.n; ++j)
      for (int k = 0; k < x.n; ++k)
        if (i != j && x.arc(i, j) > x.arc(i, k) + x.arc(k, j)) return false;
  return true;
}

void expect_zero_diagonal(const Instance& x) {
  for (int i = 0; i < x.n; ++i) EXPECT_EQ(x.arc(i, i), 0) << x.name;
}

TEST(TspAtspClasses, SameSeedSameInstanceOtherSeedOther) {
  const tsp::CraneShape crane{};
  const tsp::CoinShape coin{};
  EXPECT_EQ(tsp::amat(20, 0, tsp::kMatrixClassMax, 5).dist,
            tsp::amat(20, 0, tsp::kMatrixClassMax, 5).dist);
  EXPECT_NE(tsp::amat(20, 0, tsp::kMatrixClassMax, 5).dist,
            tsp::amat(20, 0, tsp::kMatrixClassMax, 6).dist);
  EXPECT_EQ(tsp::tmat(20, 0, 99, 5).dist, tsp::tmat(20, 0, 99, 5).dist);
  EXPECT_EQ(tsp::tsmat(20, 0, 99, 5).dist, tsp::tsmat(20, 0, 99, 5).dist);
  EXPECT_NE(tsp::tsmat(20, 0, 99, 5).dist, tsp::tsmat(20, 0, 99, 7).dist);
  EXPECT_EQ(tsp::crane(20, crane, 5).dist, tsp::crane(20, crane, 5).dist);
  EXPECT_NE(tsp::crane(20, crane, 5).dist, tsp::crane(20, crane, 6).dist);
  EXPECT_EQ(tsp::coin(20, coin, 5).dist, tsp::coin(20, coin, 5).dist);
  EXPECT_NE(tsp::coin(20, coin, 5).dist, tsp::coin(20, coin, 6).dist);
}

TEST(TspAtspClasses, AmatIsInRangeAndAsymmetric) {
  const auto x = tsp::amat(40, 0, tsp::kMatrixClassMax, 1);
  expect_zero_diagonal(x);
  for (int i = 0; i < x.n; ++i)
    for (int j = 0; j < x.n; ++j)
      if (i != j) EXPECT_TRUE(x.arc(i, j) >= 0 && x.arc(i, j) <= tsp::kMatrixClassMax);
  EXPECT_FALSE(x.symmetric);
  EXPECT_FALSE(metric(x));  // 40 random arcs per row: some detour is shorter
  EXPECT_THROW(tsp::amat(5, 3, 2, 1), std::invalid_argument);
}

TEST(TspAtspClasses, TmatIsAmatClosed) {
  const auto raw = tsp::amat(30, 0, tsp::kMatrixClassMax, 2);
  const auto closed = tsp::tmat(30, 0, tsp::kMatrixClassMax, 2);
  EXPECT_TRUE(metric(closed));
  EXPECT_FALSE(closed.symmetric);
  bool shortened = false;
  for (std::size_t k = 0; k < raw.dist.size(); ++k) {
    EXPECT_LE(closed.dist[k], raw.dist[k]);
    shortened = shortened || closed.dist[k] < raw.dist[k];
  }
  EXPECT_TRUE(shortened);
  // Closure keeps arcs that are already shortest paths: closing twice changes nothing.
  auto again = closed.dist;
  tsp::close_under_shortest_paths(closed.n, again);
  EXPECT_EQ(again, closed.dist);
}

TEST(TspAtspClasses, TsmatIsSymmetricAndMetric) {
  const auto x = tsp::tsmat(30, 0, tsp::kMatrixClassMax, 3);
  EXPECT_TRUE(x.symmetric);
  EXPECT_TRUE(metric(x));
  expect_zero_diagonal(x);
}

TEST(TspAtspClasses, CraneLoadedMovesAddAConstantPerTour) {
  tsp::CraneShape empty{};
  empty.loaded = false;
  const auto a = tsp::crane(9, tsp::CraneShape{}, 4), b = tsp::crane(9, empty, 4);
  EXPECT_FALSE(a.symmetric);
  // d_loaded(i, j) - d_empty(i, j) depends on j only (job j's loaded move) ...
  std::int64_t total = 0;
  for (int j = 0; j < a.n; ++j) {
    const int other = j == 0 ? 1 : 0;
    const auto extra = a.arc(other, j) - b.arc(other, j);
    EXPECT_GE(extra, 0);
    total += extra;
    for (int i = 0; i < a.n; ++i)
      if (i != j) EXPECT_EQ(a.arc(i, j) - b.arc(i, j), extra) << i << "->" << j;
  }
  // ... so every tour pays the same sum, and the optima differ by it.
  EXPECT_EQ(tsp::brute_force(a).cost, tsp::brute_force(b).cost + total);
  // Jobs of length 0 (job_scale 0): empty moves between sources only, which is symmetric.
  tsp::CraneShape still{};
  still.job_scale = 0;
  EXPECT_TRUE(tsp::crane(12, still, 4).symmetric);
  EXPECT_THROW(tsp::crane(5, tsp::CraneShape{0, 1.0, true}, 1), std::invalid_argument);
}

TEST(TspAtspClasses, CoinIsAMetricOfBlocksOnOneWayStreets) {
  const tsp::CoinShape shape{};
  EXPECT_EQ(tsp::coin_grid(20, shape), 9);  // 9² = 81 >= 80
  EXPECT_EQ(tsp::coin_grid(1, shape), 2);
  const auto x = tsp::coin(20, shape, 8);
  EXPECT_FALSE(x.symmetric);
  EXPECT_TRUE(metric(x));
  for (int i = 0; i < x.n; ++i)
    for (int j = 0; j < x.n; ++j) {
      EXPECT_EQ(x.arc(i, j) % shape.block, 0);
      if (i != j) EXPECT_GT(x.arc(i, j), 0) << "phones sit at distinct intersections";
    }
  // Every street two-way: plain Manhattan distances, symmetric.
  tsp::CoinShape open = shape;
  open.two_way_every = 1;
  EXPECT_TRUE(tsp::coin(20, open, 8).symmetric);
  // 2x2 grid, all four corners: the one-way loop around the block (ring or not).
  tsp::CoinShape tiny{2, 1, 0, false};
  const auto loop = tsp::coin(4, tiny, 1);
  EXPECT_EQ(tsp::brute_force(loop).cost, 4);
  // Without the ring a 3x3 grid has a dead-end corner: with a phone on every
  // intersection, some phone cannot be reached, which is an error, not a silent matrix.
  EXPECT_THROW(tsp::coin(9, tsp::CoinShape{3, 1, 0, false}, 1), std::invalid_argument);
  EXPECT_NO_THROW(tsp::coin(9, tsp::CoinShape{3, 1, 0, true}, 1));
  EXPECT_THROW(tsp::coin(10, tsp::CoinShape{3, 1, 0, true}, 1),
               std::invalid_argument);  // 10 > 9 spots
}

TEST(TspAtspClasses, HeldKarpOptimumEqualsBruteForce) {
  for (int n = 1; n <= 10; ++n)
    for (std::uint64_t seed : {1u, 2u}) {
      for (const auto& x :
           {tsp::amat(n, 0, 1000, seed), tsp::tsmat(n, 0, 1000, seed),
            tsp::coin(n, tsp::CoinShape{}, seed), tsp::crane(n, tsp::CraneShape{}, seed)})
        EXPECT_EQ(tsp::held_karp_optimum(x), tsp::brute_force(x).cost) << x.name << " n=" << n;
    }
  EXPECT_THROW(tsp::held_karp_optimum(tsp::amat(26, 0, 9, 1)), std::invalid_argument);
}

const dpgpu::GeneratorEntry& generator(const std::string& name) {
  auto* g = dpgpu::Registry::get().problem("tsp")->generator(name);
  if (!g) throw std::runtime_error("not registered: " + name);
  return *g;
}

TEST(TspAtspClasses, RegisteredWithOptimumUpToOptimumMaxN) {
  for (const char* name : {"amat", "tmat", "tsmat", "crane", "coin"}) {
    auto& g = generator(name);
    auto small = g.make(g.schema.resolve({{"n", std::int64_t{9}}}), 3);
    EXPECT_EQ(small.name, std::string(name) + "9-s3");
    const auto& x = small.as<Instance>();
    ASSERT_TRUE(x.optimum.has_value()) << name;
    EXPECT_EQ(*x.optimum, tsp::brute_force(x).cost) << name;
    EXPECT_EQ(small.known_optimum, x.optimum) << name;
    auto big =
        g.make(g.schema.resolve({{"n", std::int64_t{9}}, {"optimum_max_n", std::int64_t{8}}}), 3);
    EXPECT_FALSE(big.as<Instance>().optimum.has_value()) << name;
    EXPECT_FALSE(big.known_optimum.has_value()) << name;
    EXPECT_EQ(g.schema.resolve({}).integer("optimum_max_n"), 22);
  }
  auto& coin = generator("coin");
  EXPECT_EQ(
      coin.make(coin.schema.resolve({{"n", std::int64_t{5}}, {"block", std::int64_t{7}}}), 1).name,
      "coin5-g5-b7-w0-s1");
  auto& amat = generator("amat");
  EXPECT_EQ(
      amat.make(amat.schema.resolve({{"n", std::int64_t{5}}, {"max", std::int64_t{9}}}), 1).name,
      "amat5-0to9-s1");
}

}  // namespace
