// The generators: determinism per seed, value ranges, EUC_2D rounding, schemas and names.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/generators.hpp"

namespace {

// nint(sqrt(s)) for an integer s, in integers only: the k with (2k-1)^2 <= 4s < (2k+1)^2.
std::int64_t rounded_root(std::int64_t s) {
  std::int64_t k = 0;
  while ((2 * k + 1) * (2 * k + 1) <= 4 * s) ++k;
  return k;
}

TEST(TspEuclidean, ArcsAreRoundedDistancesBetweenItsPoints) {
  auto x = tsp::euclidean(40, 1000, 7);
  ASSERT_EQ(x.n, 40);
  ASSERT_EQ(x.coords.size(), 40u);
  EXPECT_TRUE(x.symmetric);
  EXPECT_EQ(x.edge_weight_type, "EUC_2D");
  for (int i = 0; i < x.n; ++i) {
    const auto p = x.coords[i];
    EXPECT_TRUE(p.x >= 0 && p.x < 1000 && p.x == std::int64_t(p.x)) << p.x;
    EXPECT_TRUE(p.y >= 0 && p.y < 1000 && p.y == std::int64_t(p.y)) << p.y;
    for (int j = 0; j < x.n; ++j) {
      const auto dx = std::int64_t(p.x - x.coords[j].x), dy = std::int64_t(p.y - x.coords[j].y);
      EXPECT_EQ(x.arc(i, j), rounded_root(dx * dx + dy * dy)) << i << "->" << j;
    }
  }
}

TEST(TspEuclidean, SameSeedSameInstanceOtherSeedOther) {
  EXPECT_EQ(tsp::euclidean(30, 1000, 1).dist, tsp::euclidean(30, 1000, 1).dist);
  EXPECT_NE(tsp::euclidean(30, 1000, 1).dist, tsp::euclidean(30, 1000, 2).dist);
}

TEST(TspEuclidean, SideOneStacksEveryPoint) {
  auto x = tsp::euclidean(6, 1, 3);
  for (auto d : x.dist) EXPECT_EQ(d, 0);
}

TEST(TspEuclidean, PinnedOutput) {
  // Fixed by mt19937_64 and draw_below(): the same on every standard library. If this
  // changes, every published instance changes with it. Values from an independent Python
  // implementation of mt19937_64 and Lemire's draw.
  auto x = tsp::euclidean(3, 1000, 1);
  EXPECT_EQ(x.coords[0].x, 133);
  EXPECT_EQ(x.coords[0].y, 136);
  EXPECT_EQ(x.coords[2].y, 911);
}

TEST(TspRandomMatrix, ArcsStayInRangeAndDiagonalIsZero) {
  auto x = tsp::random_matrix(30, 5, 9, 4);
  for (int i = 0; i < x.n; ++i)
    for (int j = 0; j < x.n; ++j) {
      if (i == j)
        EXPECT_EQ(x.arc(i, j), 0);
      else
        EXPECT_TRUE(x.arc(i, j) >= 5 && x.arc(i, j) <= 9) << x.arc(i, j);
    }
  EXPECT_FALSE(x.symmetric);
  EXPECT_EQ(x.edge_weight_type, "EXPLICIT");
  EXPECT_EQ(tsp::random_matrix(30, 5, 9, 4).dist, x.dist);
  EXPECT_NE(tsp::random_matrix(30, 5, 9, 5).dist, x.dist);
}

TEST(TspRandomMatrix, EveryValueIsEquallyLikely) {
  auto x = tsp::random_matrix(201, 1, 4, 11);  // 40200 arcs, 10050 expected per value
  std::map<std::int64_t, int> seen;
  for (int i = 0; i < x.n; ++i)
    for (int j = 0; j < x.n; ++j)
      if (i != j) ++seen[x.arc(i, j)];
  ASSERT_EQ(seen.size(), 4u);
  for (auto [value, count] : seen) EXPECT_NEAR(count, 10050, 400) << value;  // ~4 sigma
}

TEST(TspRandomMatrix, MinEqualToMaxAndFullRange) {
  auto flat = tsp::random_matrix(5, 7, 7, 1);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(flat.arc(i, j), i == j ? 0 : 7);
  EXPECT_TRUE(flat.symmetric);
  EXPECT_NO_THROW(tsp::random_matrix(5, 0, tsp::kMaxWeight, 1));
  EXPECT_THROW(tsp::random_matrix(5, 8, 7, 1), std::invalid_argument);
  EXPECT_THROW(tsp::random_matrix(5, -1, 7, 1), std::invalid_argument);
  EXPECT_THROW(tsp::random_matrix(0, 1, 7, 1), std::invalid_argument);
}

TEST(TspRandomMatrix, PinnedOutput) {
  auto x = tsp::random_matrix(3, 1, 1000, 1);
  EXPECT_EQ(x.arc(0, 1), 134);
  EXPECT_EQ(x.arc(2, 1), 912);
}

const dpgpu::GeneratorEntry& generator(const std::string& name) {
  auto* g = dpgpu::Registry::get().problem("tsp")->generator(name);
  if (!g) throw std::runtime_error("not registered: " + name);
  return *g;
}

TEST(TspGenerators, SchemasHaveDefaultsAndRanges) {
  auto e = generator("euclidean").schema.resolve({});
  EXPECT_EQ(e.integer("n"), 16);
  EXPECT_EQ(e.integer("side"), 1000);
  auto r = generator("random_matrix").schema.resolve({});
  EXPECT_EQ(r.integer("n"), 16);
  EXPECT_EQ(r.integer("min"), 1);
  EXPECT_EQ(r.integer("max"), 1000);
  EXPECT_THROW(generator("euclidean").schema.resolve({{"n", std::int64_t{0}}}), dpgpu::InputError);
  EXPECT_THROW(generator("euclidean").schema.resolve({{"side", std::int64_t{0}}}),
               dpgpu::InputError);
  EXPECT_THROW(generator("random_matrix").schema.resolve({{"min", std::int64_t{-1}}}),
               dpgpu::InputError);
  EXPECT_THROW(generator("random_matrix").schema.resolve({{"side", std::int64_t{5}}}),
               dpgpu::InputError);
}

TEST(TspGenerators, RegisteredGeneratorsNameTheirInstances) {
  auto& g = generator("euclidean");
  auto a = g.make(g.schema.resolve({{"n", std::int64_t{12}}}), 3);
  EXPECT_EQ(a.name, "euclidean-n12-side1000-s3");
  EXPECT_EQ(a.as<tsp::Instance>().n, 12);
  EXPECT_EQ(a.as<tsp::Instance>().name, a.name);
  EXPECT_FALSE(a.known_optimum.has_value());
  auto& r = generator("random_matrix");
  auto b = r.make(r.schema.resolve(
                      {{"n", std::int64_t{5}}, {"min", std::int64_t{2}}, {"max", std::int64_t{3}}}),
                  9);
  EXPECT_EQ(b.name, "random_matrix-n5-2to3-s9");
  EXPECT_THROW(r.make(r.schema.resolve({{"min", std::int64_t{4}}, {"max", std::int64_t{3}}}), 1),
               std::invalid_argument);
}

}  // namespace
