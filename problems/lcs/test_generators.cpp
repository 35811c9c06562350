// Symbols, the bounded draw, and the random and planted generators.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "draw.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/generators.hpp"
#include "lcs/reference.hpp"
#include "lcs/symbols.hpp"

namespace {

TEST(LcsSymbols, FourIsDnaAndEveryAlphabetIsAPrefixOfAll256Bytes) {
  EXPECT_EQ(lcs::symbols(4), "ACGT");
  EXPECT_EQ(lcs::symbols(1), "A");
  const auto all = lcs::symbols(256);
  EXPECT_EQ(std::set<char>(all.begin(), all.end()).size(), 256u);
  EXPECT_EQ(all.substr(0, 20), lcs::symbols(20));
  for (char c : lcs::symbols(94)) EXPECT_TRUE(c >= '!' && c <= '~') << int(c);
  EXPECT_THROW(lcs::symbols(0), std::invalid_argument);
  EXPECT_THROW(lcs::symbols(257), std::invalid_argument);
}

TEST(LcsDraw, StaysBelowBoundAndReachesEveryValue) {
  std::mt19937_64 rng(7);
  std::vector<int> seen(5, 0);
  for (int i = 0; i < 5000; ++i) {
    auto v = lcs::draw_below(rng, 5);
    ASSERT_LT(v, 5u);
    ++seen[v];
  }
  for (int count : seen) EXPECT_NEAR(count, 1000, 150);
  EXPECT_EQ(lcs::draw_below(rng, 1), 0u);
}

TEST(LcsRandom, SameSeedSameStringsOtherSeedOtherStrings) {
  auto x = lcs::random_pair(500, 300, 4, 1), y = lcs::random_pair(500, 300, 4, 1);
  auto z = lcs::random_pair(500, 300, 4, 2);
  EXPECT_EQ(x.a, y.a);
  EXPECT_EQ(x.b, y.b);
  EXPECT_NE(x.a, z.a);
  EXPECT_NE(x.b, z.b);
  EXPECT_EQ(x.a.size(), 500u);
  EXPECT_EQ(x.b.size(), 300u);
}

// Pins the exact output, so a change to the generator (or a platform difference) shows.
TEST(LcsRandom, OutputIsPinned) {
  auto x = lcs::random_pair(24, 8, 4, 1);
  EXPECT_EQ(x.a, "AACACTCAGGAGTACACTCCCGCC");
  EXPECT_EQ(x.b, "CAAAGGTC");
}

TEST(LcsRandom, UsesOnlyTheAlphabetAndAllOfIt) {
  for (int k : {1, 2, 4, 20, 256}) {
    auto x = lcs::random_pair(4000, 10, k, 3);
    const auto sigma = lcs::symbols(k);
    std::set<char> used(x.a.begin(), x.a.end());
    EXPECT_EQ(used, std::set<char>(sigma.begin(), sigma.end())) << "alphabet " << k;
  }
  EXPECT_EQ(lcs::random_pair(5, 0, 1, 9).a, "AAAAA");
}

TEST(LcsPlanted, LengthIsExactlyKnownForManyShapes) {
  const double fractions[] = {0.0, 0.1, 0.5, 0.9, 1.0};
  const std::pair<int, int> shapes[] = {{0, 0},   {1, 1},   {0, 7},   {1, 9},
                                        {64, 64}, {37, 81}, {150, 40}};
  for (int k : {3, 4, 20, 256})
    for (double f : fractions)
      for (auto [n, m] : shapes) {
        const std::uint64_t seed = 11 + n + 1000 * m;
        auto p = lcs::planted_pair(n, m, k, f, seed);
        SCOPED_TRACE(testing::Message() << "k=" << k << " f=" << f << " n=" << n << " m=" << m);
        ASSERT_EQ(p.instance.a.size(), std::size_t(n));
        ASSERT_EQ(p.instance.b.size(), std::size_t(m));
        EXPECT_EQ(p.lcs_length, std::int64_t(std::floor(f * std::min(n, m))));
        EXPECT_EQ(lcs::reference_length(p.instance.a, p.instance.b), p.lcs_length);
      }
}

TEST(LcsPlanted, FillerOfOneStringNeverOccursInTheOther) {
  auto p = lcs::planted_pair(2000, 1500, 4, 0.3, 5);
  // alphabet 4: planted "AC", filler of a "G", filler of b "T"
  EXPECT_EQ(p.instance.a.find('T'), std::string::npos);
  EXPECT_EQ(p.instance.b.find('G'), std::string::npos);
  EXPECT_NE(p.instance.a.find('G'), std::string::npos);
  EXPECT_NE(p.instance.b.find('T'), std::string::npos);
}

TEST(LcsPlanted, DeterministicPerSeed) {
  auto x = lcs::planted_pair(300, 200, 8, 0.5, 1), y = lcs::planted_pair(300, 200, 8, 0.5, 1);
  auto z = lcs::planted_pair(300, 200, 8, 0.5, 2);
  EXPECT_EQ(x.instance.a, y.instance.a);
  EXPECT_EQ(x.instance.b, y.instance.b);
  EXPECT_NE(x.instance.a, z.instance.a);
}

TEST(LcsPlanted, RejectsBadArguments) {
  EXPECT_THROW(lcs::planted_pair(10, 10, 2, 0.5, 1), std::invalid_argument);
  EXPECT_THROW(lcs::planted_pair(10, 10, 4, 1.5, 1), std::invalid_argument);
  EXPECT_THROW(lcs::planted_pair(-1, 10, 4, 0.5, 1), std::invalid_argument);
}

const dpgpu::GeneratorEntry& registered(const std::string& name) {
  auto* p = dpgpu::Registry::get().problem("lcs");
  if (!p || !p->generator(name)) throw std::runtime_error("generator not registered: " + name);
  return *p->generator(name);
}

TEST(LcsGenerators, RegisteredRandomDefaultsMToN) {
  auto& g = registered("random");
  auto x = g.make(g.schema.resolve({{"n", std::int64_t{100}}}), 4);
  EXPECT_EQ(std::get<std::int64_t>(x.dims.at("n")), 100);
  EXPECT_EQ(std::get<std::int64_t>(x.dims.at("m")), 100);
  EXPECT_FALSE(x.known_optimum.has_value());
  EXPECT_EQ(x.as<lcs::Instance>().a, lcs::random_pair(100, 100, 4, 4).a);
  auto y = g.make(g.schema.resolve({{"n", std::int64_t{10}}, {"m", std::int64_t{0}}}), 4);
  EXPECT_EQ(std::get<std::int64_t>(y.dims.at("m")), 0);
}

TEST(LcsGenerators, RegisteredPlantedCarriesTheKnownOptimum) {
  auto& g = registered("planted");
  auto x = g.make(g.schema.resolve(
                      {{"n", std::int64_t{200}}, {"m", std::int64_t{120}}, {"lcs_fraction", 0.25}}),
                  3);
  ASSERT_TRUE(x.known_optimum.has_value());
  EXPECT_EQ(*x.known_optimum, 30);
  const auto& inst = x.as<lcs::Instance>();
  EXPECT_EQ(lcs::reference_length(inst.a, inst.b), 30);
}

TEST(LcsGenerators, SchemasRefuseOutOfRangeValues) {
  auto& planted = registered("planted");
  auto& random = registered("random");
  EXPECT_THROW(planted.schema.resolve({{"alphabet", std::int64_t{2}}}), dpgpu::InputError);
  EXPECT_THROW(planted.schema.resolve({{"lcs_fraction", 1.5}}), dpgpu::InputError);
  EXPECT_THROW(random.schema.resolve({{"alphabet", std::int64_t{257}}}), dpgpu::InputError);
  EXPECT_THROW(random.schema.resolve({{"n", std::int64_t{-1}}}), dpgpu::InputError);
  EXPECT_NO_THROW(random.schema.resolve({{"alphabet", std::int64_t{256}}}));
}

}  // namespace
