// test_bitlcs_multigpu.cu — gpu.bitparallel with gpus = 2 and 4 (logical GPUs: on one card
// they share it, i % device count): the length equal to one GPU's and to the reference on
// odd and unequal lengths, alphabets 2, 4 and 20, 32- and 64-bit lanes, launches of one
// group and of many (ring wrap-around, carries copied between GPUs); the strings of a
// reconstruction whose Hirschberg passes are split over the GPUs; the per-GPU counters.
// Skipped (not passed) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <string>

#include "bitlcs_gpu.hpp"
#include "bitlcs_multigpu.hpp"
#include "bitlcs_reconstruct.hpp"
#include "dpgpu/context.hpp"
#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"
#include "lcs/reference.hpp"
#include "require_device.hpp"
#include "test_bitlcs_support.hpp"

namespace {

using namespace dpgpu::bitlcs;
using dpgpu::bitlcs::test::alphabet;
using dpgpu::bitlcs::test::mutate;
using dpgpu::bitlcs::test::random_string;

class BitLcsMultiGpu : public testing::Test {
 protected:
  void SetUp() override { REQUIRE_DEVICE(); }
};

BitLcsConfig config(int gpus, std::int64_t exchange_rows, int bits = 64, int w = 1) {
  BitLcsConfig c;
  c.gpus = gpus, c.exchange_rows = exchange_rows, c.word_bits = bits, c.words_per_thread = w;
  return c;
}

std::int64_t solve_length(const std::string& a, const std::string& b, const BitLcsConfig& c,
                          std::map<std::string, double>* counters = nullptr) {
  dpgpu::Context ctx(dpgpu::Backend::Gpu, dpgpu::Context::Clock::now() + std::chrono::hours(1));
  ctx.begin();
  const std::int64_t n = solve(a, b, c, ctx).length;
  ctx.end();
  if (counters) *counters = ctx.counters();
  return n;
}

// Odd and unequal lengths over several stripes per GPU (64-bit W = 1: 2048 bits a stripe;
// 32-bit: 1024), rows from one group to many launches.
TEST_F(BitLcsMultiGpu, LengthEqualsOneGpu) {
  std::mt19937_64 rng(71);
  for (int k : {2, 4, 20})
    for (auto [n, m] : {std::pair<std::int64_t, std::int64_t>{20001, 20001},
                        {30011, 7777},
                        {9999, 33},
                        {12345, 4097}}) {
      const std::string sym = alphabet(k), a = random_string(n, sym, rng),
                        b = random_string(m, sym, rng);
      const std::int64_t one = solve_length(a, b, config(1, 0));
      if (n * m <= 20001 * 20001) EXPECT_EQ(one, lcs::cpu::bitparallel(a, b));
      for (int gpus : {1, 2, 4})  // 1: windowed, the same schedule on one GPU
        for (BitLcsConfig c : {config(gpus, 0), config(gpus, 64), config(gpus, 1000, 32),
                               config(gpus, 256, 64, 2)}) {
          c.windowed = gpus == 1;
          std::map<std::string, double> counters;
          EXPECT_EQ(solve_length(a, b, c, &counters), one)
              << "alphabet " << k << " n=" << n << " m=" << m << " gpus=" << gpus
              << " exchange_rows=" << c.exchange_rows << " bits=" << c.word_bits;
          // Split over every GPU when the pass has a stripe for each; with fewer (9999 bits
          // in stripes of 4096: 3 < 4 GPUs) it runs whole on GPU 0.
          const std::int64_t stripe_bits = 32 * std::int64_t(c.words_per_thread) * c.word_bits;
          const bool split = (std::max(n, m) + stripe_bits - 1) / stripe_bits >= gpus;
          EXPECT_EQ(counters.count("gpu" + std::to_string(gpus - 1) + ".compute_s"),
                    split ? 1u : 0u)
              << "split over every GPU iff a stripe for each: n=" << n << " gpus=" << gpus
              << " W=" << c.words_per_thread;
          EXPECT_EQ(solve_length(b, a, c), one) << "swapped";
        }
    }
}

// Related pairs (long common runs: carries travel across every stripe boundary).
TEST_F(BitLcsMultiGpu, RelatedPairsEqualOneGpu) {
  std::mt19937_64 rng(72);
  const std::string a = random_string(70001, "ACGT", rng), b = mutate(a, "ACGT", 5, rng);
  const std::int64_t one = solve_length(a, b, config(1, 0));
  for (int gpus : {2, 3, 4}) {
    std::map<std::string, double> k;
    EXPECT_EQ(solve_length(a, b, config(gpus, 512), &k), one) << gpus;
    EXPECT_EQ(k.at("gpus.logical"), gpus);
    EXPECT_GT(k.at("gpu" + std::to_string(gpus - 1) + ".compute_s"), 0.0);
  }
}

// Hirschberg with every pass of at least one stripe per GPU split over the GPUs.
TEST_F(BitLcsMultiGpu, ReconstructWithSplitPasses) {
  std::mt19937_64 rng(73);
  for (int k : {2, 4, 20}) {
    const std::string sym = alphabet(k), a = random_string(9001, sym, rng);
    for (const std::string& b : {random_string(5003, sym, rng), mutate(a, sym, 10, rng)}) {
      const std::int64_t want = lcs::reference_length(a, b);
      for (int gpus : {2, 4}) {
        dpgpu::Context ctx(dpgpu::Backend::Gpu,
                           dpgpu::Context::Clock::now() + std::chrono::hours(1));
        ctx.begin();
        const std::string& x = a.size() >= b.size() ? a : b;
        const std::string& y = a.size() >= b.size() ? b : a;
        const Symbols sym_codes = encode(x, y);
        auto runner = make_multigpu_runner(sym_codes, config(gpus, 64), ctx, 1);
        const std::string s = reconstruct(x, y, sym_codes, *runner, 64);
        ctx.end();
        EXPECT_GT(ctx.counters().at("gpu1.compute_s"), 0.0);
        const auto v = lcs::Problem::check(lcs::Instance{a, b}, lcs::Solution{s});
        EXPECT_TRUE(v.ok) << v.message;
        EXPECT_EQ(std::int64_t(s.size()), want) << "alphabet " << k << " gpus=" << gpus;
      }
      BitLcsConfig c = config(2, 0);
      c.reconstruct = true;
      dpgpu::Context ctx(dpgpu::Backend::Gpu, dpgpu::Context::Clock::now() + std::chrono::hours(1));
      ctx.begin();
      const BitLcsResult r = solve(a, b, c, ctx);
      ctx.end();
      ASSERT_TRUE(r.subsequence);
      EXPECT_TRUE(lcs::Problem::check(lcs::Instance{a, b}, lcs::Solution{*r.subsequence}).ok);
      EXPECT_EQ(r.length, want);
    }
  }
}

TEST_F(BitLcsMultiGpu, CountersPerGpu) {
  std::mt19937_64 rng(74);
  const std::string a = random_string(40000, "ACGT", rng), b = random_string(30000, "ACGT", rng);
  std::map<std::string, double> k;
  solve_length(a, b, config(4, 1024), &k);
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  EXPECT_EQ(k.at("gpus.physical"), double(std::min(devices, 4)));
  for (int g = 0; g < 4; ++g) {
    const std::string p = "gpu" + std::to_string(g) + ".";
    EXPECT_GT(k.at(p + "compute_s"), 0.0) << p;
    EXPECT_GE(k.at(p + "wait_s"), 0.0) << p;
    EXPECT_GE(k.at(p + "fill_s"), 0.0) << p;
    EXPECT_GE(k.at(p + "drain_s"), 0.0) << p;
    if (g < 3) EXPECT_GT(k.at(p + "peer_s"), 0.0) << p;
  }
  // The pipeline: a later GPU starts later (fill) and GPU 0 finishes first (drain).
  EXPECT_GT(k.at("gpu3.fill_s"), k.at("gpu0.fill_s"));
  EXPECT_GT(k.at("gpu0.drain_s"), k.at("gpu3.drain_s"));
}

// Small enough for compute-sanitizer: two logical GPUs, a few launches, ring wrap-around.
TEST_F(BitLcsMultiGpu, SmallForSanitizers) {
  std::mt19937_64 rng(75);
  const std::string a = random_string(8193, "ACGT", rng), b = random_string(701, "ACGT", rng);
  const std::int64_t want = lcs::reference_length(a, b);
  for (const BitLcsConfig& c : {config(2, 64), config(2, 128, 32, 2)}) {
    std::map<std::string, double> k;
    EXPECT_EQ(solve_length(a, b, c, &k), want);
    EXPECT_GT(k.at("gpu1.compute_s"), 0.0);
  }
}

}  // namespace
