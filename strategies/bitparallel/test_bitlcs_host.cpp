// test_bitlcs_host.cpp — gpu.bitparallel's host half on the CPU model of the pass (no GPU):
// the split column against brute force, the length and Hirschberg's reconstruction against
// the reference on random, related and planted pairs at word boundaries, and the schema.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bitlcs_ceiling.hpp"
#include "bitlcs_config.hpp"
#include "bitlcs_pass.hpp"
#include "bitlcs_reconstruct.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/generators.hpp"
#include "lcs/lcs.hpp"
#include "lcs/reference.hpp"
#include "test_bitlcs_support.hpp"

namespace {

using namespace dpgpu::bitlcs;
using dpgpu::bitlcs::test::alphabet;
using dpgpu::bitlcs::test::mutate;
using dpgpu::bitlcs::test::random_string;

// LCS of (x, y) with x along the bits, and one LCS string, through the CPU model.
void expect_solved(const std::string& x, const std::string& y, std::int64_t leaf_rows,
                   std::int64_t expected) {
  SCOPED_TRACE(testing::Message() << "|x|=" << x.size() << " |y|=" << y.size()
                                  << " leaf_rows=" << leaf_rows);
  const Symbols s = encode(x, y);
  CpuPassRunner runner(s);
  EXPECT_EQ(length(runner, std::int64_t(x.size()), std::int64_t(y.size())), expected);
  const std::string z = reconstruct(x, y, s, runner, leaf_rows);
  const auto v = lcs::Problem::check(lcs::Instance{x, y}, lcs::Solution{z});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(std::int64_t(z.size()), expected);
}

TEST(BitLcsHost, EncodeGivesYsSymbolsDenseCodesAndXsOthersSigma) {
  const Symbols s = encode("xaqb", "bab");
  EXPECT_EQ(s.sigma, 2);
  EXPECT_EQ(s.y, (std::vector<std::uint8_t>{0, 1, 0}));
  EXPECT_EQ(s.x, (std::vector<std::uint8_t>{2, 1, 2, 0}));
}

TEST(BitLcsHost, BestSplitMatchesBruteForce) {
  std::mt19937_64 rng(7);
  for (std::int64_t n : {1, 2, 63, 64, 65, 130, 200}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<Word> f(std::size_t(words_of(n))), b(f.size());
      for (auto& w : f) w = rng() | rng();  // mostly ones, as real V vectors are
      for (auto& w : b) w = rng() | rng();
      auto zeros_below = [](const std::vector<Word>& v, std::int64_t j) {
        std::int64_t z = 0;
        for (std::int64_t i = 0; i < j; ++i) z += !((v[i / 64] >> (i % 64)) & 1);
        return z;
      };
      std::int64_t best = -1;
      for (std::int64_t j = 0; j <= n; ++j)
        best = std::max(best, zeros_below(f, j) + zeros_below(b, n - j));
      const std::int64_t j = best_split(f.data(), b.data(), n);
      ASSERT_GE(j, 0);
      ASSERT_LE(j, n);
      EXPECT_EQ(zeros_below(f, j) + zeros_below(b, n - j), best) << "n=" << n << " trial " << trial;
    }
  }
}

TEST(BitLcsHost, TextbookPair) {
  for (std::int64_t leaf : {1, 2, 100}) expect_solved("ABCBDAB", "BDCABA", leaf, 4);
}

TEST(BitLcsHost, EdgeSizesAndAlphabets) {
  std::mt19937_64 rng(11);
  const std::int64_t sizes[] = {0, 1, 31, 32, 33, 63, 64, 65, 127, 129, 200};
  for (int k : {2, 4, 20, 256})
    for (std::int64_t n : sizes)
      for (std::int64_t m : {0, 1, 33, 65, 150}) {
        if (m > n) continue;  // x is the longer string in a solve
        const std::string sym = alphabet(k), x = random_string(n, sym, rng),
                          y = random_string(m, sym, rng);
        SCOPED_TRACE(testing::Message() << "alphabet " << k);
        const std::int64_t want = lcs::reference_length(x, y);
        for (std::int64_t leaf : {1, 5, 64}) expect_solved(x, y, leaf, want);
      }
}

TEST(BitLcsHost, RelatedPairsAndLongRuns) {
  std::mt19937_64 rng(12);
  for (int k : {2, 4, 20}) {
    const std::string sym = alphabet(k), x = random_string(700, sym, rng);
    const std::string y = mutate(x, sym, 10, rng);
    for (std::int64_t leaf : {1, 16, 256})
      expect_solved(x, y.substr(0, std::min(y.size(), x.size())), leaf,
                    lcs::reference_length(x, y.substr(0, std::min(y.size(), x.size()))));
    expect_solved(x, x, 8, std::int64_t(x.size()));  // equal strings: one diagonal
  }
}

TEST(BitLcsHost, PlantedPairsAreExact) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto p = lcs::planted_pair(900, 700, 4, 0.6, seed);
    const std::string& x = p.instance.a.size() >= p.instance.b.size() ? p.instance.a : p.instance.b;
    const std::string& y = p.instance.a.size() >= p.instance.b.size() ? p.instance.b : p.instance.a;
    for (std::int64_t leaf : {3, 64}) expect_solved(x, y, leaf, p.lcs_length);
  }
}

TEST(BitLcsHost, ReversedAndStoredRowsModelAgreeWithForward) {
  // The reversed pass over (x, y) equals the forward pass over the reversed strings, and the
  // last stored row equals the final vector.
  std::mt19937_64 rng(13);
  const std::string x = random_string(150, "ACGT", rng), y = random_string(40, "ACGT", rng);
  const std::string xr(x.rbegin(), x.rend()), yr(y.rbegin(), y.rend());
  const Symbols s = encode(x, y + yr), sr = encode(xr, y + yr);
  CpuPassRunner a(s), b(sr);
  std::vector<PassJob> ja{PassJob{0, 150, 0, 40, true}, PassJob{0, 150, 0, 40, false, true}};
  std::vector<PassJob> jb{PassJob{0, 150, 40, 40, false}, PassJob{0, 150, 40, 40, true, true}};
  std::vector<Word> oa, ob;
  a.run(ja, lay_out(ja), oa);
  b.run(jb, lay_out(jb), ob);
  for (int w = 0; w < 3; ++w) EXPECT_EQ(oa[std::size_t(w)], ob[std::size_t(w)]) << "word " << w;
  for (int w = 0; w < 3; ++w)
    EXPECT_EQ(oa[std::size_t(3 + 39 * 3 + w)], ob[std::size_t(3 + 39 * 3 + w)]) << "row word " << w;
}

TEST(BitLcsHost, RegisteredWithSchemaAndMemoryEstimate) {
  const auto* e = dpgpu::Registry::get().solver("lcs", "gpu.bitparallel");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->backend, dpgpu::Backend::Gpu);
  const dpgpu::Params p = e->schema.resolve({});
  EXPECT_EQ(p.integer("words_per_thread"), 1);
  EXPECT_FALSE(p.flag("reconstruct"));
  // Each parameter is bound to its field: the config the solve receives.
  const auto bound =
      dpgpu::bind<BitLcsConfig>(*e, e->schema.resolve({{"word_bits", std::int64_t{32}},
                                                       {"words_per_thread", std::int64_t{4}},
                                                       {"warps", std::int64_t{8}},
                                                       {"reconstruct", true},
                                                       {"leaf_rows", std::int64_t{64}},
                                                       {"spin_ns", std::int64_t{200}},
                                                       {"carry_ring", true}}));
  EXPECT_EQ(bound.word_bits, 32);
  EXPECT_EQ(bound.words_per_thread, 4);
  EXPECT_EQ(bound.warps, 8);
  EXPECT_TRUE(bound.reconstruct);
  EXPECT_EQ(bound.leaf_rows, 64);
  EXPECT_EQ(bound.spin_ns, 200);
  EXPECT_TRUE(bound.carry_ring);
  BitLcsConfig c;
  EXPECT_EQ(device_bytes(0, 5, c), 0u);
  // 2^20 x 2^20: strings, about 2^20/2048 stripes x 2^15 carry words, small outputs.
  const auto big = device_bytes(1 << 20, 1 << 20, c);
  EXPECT_GT(big, std::uint64_t(512) * (1 << 15) * 8);
  EXPECT_LT(big, std::uint64_t(200) << 20);
  c.reconstruct = true;
  EXPECT_GT(device_bytes(1 << 20, 1 << 20, c), std::uint64_t(256) * (1 << 14) * 8);  // leaf rows
}

// The word sizes the kernel has are a rule of the registration: `dpgpu check` refuses the
// others on a machine without a GPU, naming the parameter.
TEST(BitLcsHost, RegistrationRefusesWordSizesTheKernelLacks) {
  const auto* e = dpgpu::Registry::get().solver("lcs", "gpu.bitparallel");
  ASSERT_NE(e, nullptr);
  const std::pair<const char*, std::int64_t> bad[] = {{"word_bits", 48}, {"words_per_thread", 3}};
  for (const auto& [key, value] : bad) {
    try {
      e->schema.resolve({{key, value}}, "exp.yaml:9: solver 'gpu.bitparallel'");
      ADD_FAILURE() << key << " = " << value << " was accepted";
    } catch (const dpgpu::InputError& err) {
      const std::string m = err.what();
      EXPECT_NE(m.find("exp.yaml:9"), std::string::npos) << m;
      EXPECT_NE(m.find(std::string("'") + key + "' must be"), std::string::npos) << m;
      EXPECT_NE(m.find("got " + std::to_string(value)), std::string::npos) << m;
    }
  }
  for (std::int64_t w : {1, 2, 4})
    EXPECT_NO_THROW(e->schema.resolve({{"words_per_thread", w}, {"word_bits", std::int64_t{32}}}));
  EXPECT_EQ(why_invalid(BitLcsConfig{}), "");
}

}  // namespace

// The declared ceiling (issue 37): ops per lane word as counted from the SASS, and the H200's
// 132 SMs at 1.98 GHz give the 16.7e12 int32 ops/s, 134 TCUPS at W = 1 (64-bit).
TEST(BitLcsHost, DeclaredCeiling) {
  EXPECT_DOUBLE_EQ(ops_per_lane_word(64, 1), 8);
  EXPECT_DOUBLE_EQ(ops_per_lane_word(64, 4), 6.5);
  EXPECT_DOUBLE_EQ(ops_per_lane_word(32, 1), 5);
  const double h200 = 132 * 1.98e9 * kInt32OpsPerSmClock;
  EXPECT_NEAR(h200, 16.7e12, 0.05e12);
  EXPECT_NEAR(ceiling_cups(1, 132, 1.98e9, 64, 1), h200 * 64 / 8, 1e6);
  EXPECT_NEAR(ceiling_cups(2, 132, 1.98e9, 64, 1), 2 * ceiling_cups(1, 132, 1.98e9, 64, 1), 1e6);
  EXPECT_GT(ceiling_cups(1, 132, 1.98e9, 64, 4), ceiling_cups(1, 132, 1.98e9, 64, 1));
  EXPECT_GT(ceiling_cups(1, 132, 1.98e9, 64, 1), ceiling_cups(1, 132, 1.98e9, 32, 1));
}
