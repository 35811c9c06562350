// cpu.serial and cpu.omp against exhaustive enumeration (tiny chains), against each other
// (random chains with ties, repeated dimensions and dimensions of 1), the paper's example,
// known optima, and the overflow refusal. Every parenthesization is rechecked by cost_of.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>

#include "dpgpu/error.hpp"
#include "mcm/generators.hpp"
#include "mcm_cpu.hpp"

namespace mcm::cpu {
namespace {

// Minimum over every parenthesization (Catalan many): independent of the DP's recurrence order.
std::int64_t exhaustive(const Instance& x, std::int64_t a, std::int64_t b) {
  if (b - a == 1) return 0;
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t c = a + 1; c < b; ++c)
    best = std::min(best, exhaustive(x, a, c) + exhaustive(x, c, b) + x.p[a] * x.p[c] * x.p[b]);
  return best;
}

void expect_certified(const Instance& x, const Answer& a, std::int64_t expected,
                      const std::string& who) {
  EXPECT_EQ(a.cost, expected) << who << " n=" << x.n();
  const Cost c = cost_of(x, a.parenthesization);
  ASSERT_TRUE(c.ok) << who << ": " << c.why;
  EXPECT_EQ(c.cost, a.cost) << who << " certificate " << a.parenthesization;
}

TEST(McmCpu, PaperExample) {
  const Instance x{{2, 9, 3, 1, 4, 11, 5}};
  expect_certified(x, serial(x), 154, "serial");
  expect_certified(x, omp(x, 2), 154, "omp");
}

TEST(McmCpu, TinyChainsAgainstExhaustiveEnumeration) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::int64_t n = 1 + std::int64_t(rng() % 9);
    const std::int64_t hi =
        (trial % 3 == 0) ? 3 : (trial % 3 == 1 ? 10 : 1000);  // few values: many ties
    const Instance x = random_instance(n, 1, hi, rng());
    const std::int64_t want = exhaustive(x, 0, n);
    expect_certified(x, serial(x), want, "serial");
    expect_certified(x, omp(x, 2), want, "omp");
  }
}

TEST(McmCpu, SerialAndOmpAgreeUpToAFewHundred) {
  std::uint64_t seed = 1;
  for (std::int64_t n : {1, 2, 3, 5, 7, 13, 31, 32, 33, 97, 128, 257, 400}) {
    for (auto [lo, hi] : {std::pair{1, 1}, std::pair{1, 2}, std::pair{1, 100}, std::pair{50, 60},
                          std::pair{1, 100000}}) {
      const Instance x = random_instance(n, lo, hi, ++seed);
      const Answer s = serial(x);
      expect_certified(x, s, s.cost, "serial");
      for (int t : {1, 3}) expect_certified(x, omp(x, t), s.cost, "omp");
    }
  }
}

TEST(McmCpu, EqualDimensionsTie) {
  Instance x;
  x.p.assign(65, 7);
  expect_certified(x, serial(x), 63 * 343, "serial");
  expect_certified(x, omp(x, 0), 63 * 343, "omp");
}

TEST(McmCpu, OverflowIsRefusedNamingTheBound) {
  Instance x;
  x.p.assign(1000, std::int64_t{1} << 22);  // P³ = 2^66
  for (auto solve : {std::function<Answer()>([&] { return serial(x); }),
                     std::function<Answer()>([&] { return omp(x, 1); }),
                     std::function<Answer()>([&] { return hu_shing(x); })}) {
    try {
      solve();
      FAIL() << "not refused";
    } catch (const dpgpu::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("2^63 - 1"), std::string::npos) << e.what();
    }
  }
}

// Hu-Shing against the DP: many small chains (every pattern of ties a few values give),
// longer chains against cpu.omp, structured weight sequences, and n = 1, 2.
TEST(McmHuShing, AgreesWithTheDpOnRandomChains) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 100000; ++trial) {
    const std::int64_t n = 1 + std::int64_t(rng() % (trial % 10 == 0 ? 60 : 12));
    const std::int64_t hi =
        std::array<std::int64_t, 6>{2, 3, 5, 10, 100, 1000}[std::size_t(trial % 6)];
    const Instance x = random_instance(n, 1, hi, rng());
    const Answer h = hu_shing(x), s = serial(x);
    ASSERT_EQ(h.cost, s.cost) << "trial " << trial << " n=" << n;
    const Cost c = cost_of(x, h.parenthesization);
    ASSERT_TRUE(c.ok) << c.why;
    ASSERT_EQ(c.cost, s.cost) << h.parenthesization;
  }
}

TEST(McmHuShing, AgreesWithOmpOnLongerAndStructuredChains) {
  std::mt19937_64 rng(23);
  std::vector<Instance> xs;
  for (int t = 0; t < 24; ++t)
    xs.push_back(random_instance(
        100 + std::int64_t(rng() % 500), 1,
        std::array<std::int64_t, 6>{2, 3, 10, 100, 1000, 100000}[std::size_t(t % 6)], rng()));
  for (std::int64_t n : {3, 4, 5, 50, 333}) {
    Instance inc, dec, vee, peak, alt, eq;
    for (std::int64_t i = 0; i <= n; ++i) {
      inc.p.push_back(i + 1);
      dec.p.push_back(n + 1 - i);
      vee.p.push_back(std::abs(i - n / 2) + 1);
      peak.p.push_back(n + 2 - (std::abs(i - n / 2) + 1));
      alt.p.push_back(i % 2 ? 100 : 1);
      eq.p.push_back(7);
    }
    for (auto* x : {&inc, &dec, &vee, &peak, &alt, &eq}) xs.push_back(*x);
  }
  for (const auto& x : xs) {
    const Answer h = hu_shing(x);
    expect_certified(x, h, omp(x, 2).cost, "hu_shing");
  }
  expect_certified(Instance{{5, 7}}, hu_shing(Instance{{5, 7}}), 0, "hu_shing n=1");
  expect_certified(Instance{{5, 7, 3}}, hu_shing(Instance{{5, 7, 3}}), 105, "hu_shing n=2");
  expect_certified(Instance{{2, 9, 3, 1, 4, 11, 5}}, hu_shing(Instance{{2, 9, 3, 1, 4, 11, 5}}),
                   154, "hu_shing paper");
}

TEST(McmHuShing, LargeChainCertificateHolds) {
  const Instance x = random_instance(1 << 16, 1, 100, 3);
  const Answer h = hu_shing(x);
  const Cost c = cost_of(x, h.parenthesization);
  ASSERT_TRUE(c.ok) << c.why;
  EXPECT_EQ(c.cost, h.cost);
}

TEST(McmCpu, PollStopsTheSolve) {
  const Instance x = random_instance(50, 1, 10, 1);
  int calls = 0;
  auto poll = [&] {
    if (++calls == 3) throw dpgpu::Timeout("stop");
  };
  EXPECT_THROW(serial(x, poll), dpgpu::Timeout);
  calls = 0;
  EXPECT_THROW(omp(x, 2, poll), dpgpu::Timeout);
}

}  // namespace
}  // namespace mcm::cpu
