// Combinatorial-number-system ranking: round trips, density, order, binomials.
#include <gtest/gtest.h>

#include "tsp/subset_rank.hpp"

namespace {

using namespace tsp::subsets;

TEST(TspSubsetRank, BinomialsAreRight) {
  EXPECT_EQ(kBinomials(0, 0), 1u);
  EXPECT_EQ(kBinomials(5, 2), 10u);
  EXPECT_EQ(kBinomials(3, 5), 0u);
  EXPECT_EQ(kBinomials(3, -1), 0u);
  EXPECT_EQ(kBinomials(64, 1), 64u);
  EXPECT_EQ(kBinomials(64, 32), 1832624140942590534ull);
  EXPECT_EQ(kBinomials(64, 64), 1u);
  for (int n = 1; n <= 64; ++n) {
    std::uint64_t row = 0;  // sum of a row is 2^n (wraps to 0 at n = 64)
    for (int k = 0; k <= n; ++k) row += kBinomials(n, k);
    EXPECT_EQ(row, n == 64 ? 0 : (std::uint64_t{1} << n)) << n;
  }
}

TEST(TspSubsetRank, EveryLayerIsDenseOrderedAndRoundTrips) {
  for (int m = 0; m <= 16; ++m) {
    std::vector<std::uint64_t> next_rank(m + 1, 0);  // per size: the rank the next mask must get
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << m); ++mask) {
      const int k = count_elements(mask);
      const auto r = rank(mask);
      ASSERT_EQ(r, next_rank[k]) << "m " << m << " mask "
                                 << mask;  // masks in order = ranks in order
      ASSERT_LT(r, kBinomials(m, k));
      ASSERT_EQ(unrank(k, r), mask) << "m " << m << " k " << k << " r " << r;
      ++next_rank[k];
    }
    for (int k = 0; k <= m; ++k)
      EXPECT_EQ(next_rank[k], kBinomials(m, k)) << "m " << m << " k " << k;
  }
}

TEST(TspSubsetRank, NextSameSizeWalksTheRanks) {
  for (int k = 1; k <= 16; ++k) {
    std::uint64_t mask = unrank(k, 0);
    EXPECT_EQ(mask, (std::uint64_t{1} << k) - 1);
    for (std::uint64_t r = 1; r < kBinomials(16, k); ++r) {
      mask = next_same_size(mask);
      ASSERT_EQ(rank(mask), r) << "k " << k;
    }
  }
}

TEST(TspSubsetRank, WorksAtTheTopOf64Bits) {
  const std::uint64_t top32 = ~std::uint64_t{0} << 32;
  EXPECT_EQ(rank(top32), kBinomials(64, 32) - 1);
  EXPECT_EQ(unrank(32, kBinomials(64, 32) - 1), top32);
  EXPECT_EQ(unrank(64, 0), ~std::uint64_t{0});
  EXPECT_EQ(rank(std::uint64_t{1} << 63), 63u);
  const std::uint64_t some = 0x8000'0001'0000'0f00ull;
  EXPECT_EQ(unrank(count_elements(some), rank(some)), some);
}

TEST(TspSubsetRank, PositionOfCountsSmallerElements) {
  const std::uint64_t s = 0b1011'0010;  // {1, 4, 5, 7}
  EXPECT_EQ(position_of(s, 1), 0);
  EXPECT_EQ(position_of(s, 4), 1);
  EXPECT_EQ(position_of(s, 7), 3);
  EXPECT_EQ(position_of(s, 6), 3);  // absent: where it would go
  EXPECT_EQ(lowest_element(s), 1);
}

}  // namespace
