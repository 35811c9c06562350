// test_kawanami_gpu.cu — gpu.kawanami on the GPU against the reference LCS: lengths at and
// around word and block boundaries, every words-per-thread from 1 to 32, one warp and many,
// strings of one symbol (carries run across every word and warp), related strings, symbols
// of the row string absent from the bit string, and the refusal past one block's bits.
// Skipped (not passed) without a device.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "kawanami_gpu.hpp"
#include "lcs/reference.hpp"
#include "require_device.hpp"

namespace {

using dpgpu::kawanami::KawanamiConfig;

class KawanamiGpu : public testing::Test {
 protected:
  void SetUp() override { REQUIRE_DEVICE(); }
};

std::string random_string(std::size_t n, int sigma, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pick(0, sigma - 1);
  std::string s(n, 'a');
  for (auto& c : s) c = char('a' + pick(rng));
  return s;
}

std::int64_t gpu_length(const std::string& a, const std::string& b, int threads) {
  dpgpu::Context ctx(dpgpu::Backend::Gpu, dpgpu::Context::Clock::now() + std::chrono::hours(1));
  ctx.begin();
  const std::int64_t got = dpgpu::kawanami::lcs_length(a, b, KawanamiConfig{threads}, ctx);
  ctx.end();
  return got;
}

void expect_reference(const std::string& a, const std::string& b, int threads) {
  EXPECT_EQ(gpu_length(a, b, threads), lcs::reference_length(a, b))
      << "|a|=" << a.size() << " |b|=" << b.size() << " threads=" << threads;
}

TEST_F(KawanamiGpu, SmallForSanitizers) {
  std::mt19937_64 rng(7);
  expect_reference(random_string(3000, 4, rng), random_string(200, 4, rng),
                   64);  // 2 words a thread, 2 warps
  expect_reference(std::string(2100, 'a'), std::string(150, 'a'),
                   64);  // carries through every word
}

TEST_F(KawanamiGpu, WordAndBlockBoundaries) {
  std::mt19937_64 rng(11);
  for (int threads : {32, 64, 256, 1024})
    for (std::size_t n : {1u, 31u, 32u, 33u, 1000u, 32u * 32u, 32u * 32u + 1u, 32u * 1024u + 5u}) {
      if (std::int64_t(n) > dpgpu::kawanami::max_bits(KawanamiConfig{threads}))
        continue;  // refused: EmptyAndTooLong
      expect_reference(random_string(n, 4, rng),
                       random_string(std::min<std::size_t>(n, 700) + 3, 4, rng), threads);
    }
}

TEST_F(KawanamiGpu, EveryWordsPerThread) {
  std::mt19937_64 rng(13);
  // 32 threads: bits / 1024 words-per-thread units from 1 to 32.
  for (std::size_t words : {1u, 2u, 3u, 5u, 9u, 17u, 32u})
    expect_reference(random_string(32 * 32 * words - 7, 4, rng), random_string(400, 4, rng), 32);
}

TEST_F(KawanamiGpu, OneSymbolCarriesAcrossWarps) {
  expect_reference(std::string(40000, 'a'), std::string(900, 'a'), 256);
  expect_reference(std::string(40000, 'a'), std::string(900, 'a'), 1024);
}

TEST_F(KawanamiGpu, RelatedAndForeignSymbols) {
  std::mt19937_64 rng(5);
  const std::string a = random_string(20000, 4, rng);
  std::string b = a.substr(0, 6000);
  std::uniform_int_distribution<std::size_t> at(0, b.size() - 1);
  for (int k = 0; k < 300; ++k) b[at(rng)] = 'z';  // 'z' is not in a: the all-zero mask row
  expect_reference(a, b, 1024);
  expect_reference(b, a, 512);
}

TEST_F(KawanamiGpu, EmptyAndTooLong) {
  EXPECT_EQ(gpu_length("", "abc", 64), 0);
  EXPECT_EQ(gpu_length("abc", "", 64), 0);
  EXPECT_THROW(gpu_length(std::string(32 * 32 * 32 + 1, 'a'), "a", 32), dpgpu::InputError);
}

}  // namespace
