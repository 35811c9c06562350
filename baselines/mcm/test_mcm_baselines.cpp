// cpu.serial and cpu.omp against exhaustive enumeration (tiny chains), against each other
// (random chains with ties, repeated dimensions and dimensions of 1), the paper's example,
// known optima, and the overflow refusal. Every parenthesization is rechecked by cost_of.
#include <gtest/gtest.h>

#include <algorithm>
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

void expect_certified(const Instance& x, const Answer& a, std::int64_t expected, const std::string& who) {
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
    const std::int64_t hi = (trial % 3 == 0) ? 3 : (trial % 3 == 1 ? 10 : 1000);  // few values: many ties
    const Instance x = random_instance(n, 1, hi, rng());
    const std::int64_t want = exhaustive(x, 0, n);
    expect_certified(x, serial(x), want, "serial");
    expect_certified(x, omp(x, 2), want, "omp");
  }
}

TEST(McmCpu, SerialAndOmpAgreeUpToAFewHundred) {
  std::uint64_t seed = 1;
  for (std::int64_t n : {1, 2, 3, 5, 7, 13, 31, 32, 33, 97, 128, 257, 400}) {
    for (auto [lo, hi] : {std::pair{1, 1}, std::pair{1, 2}, std::pair{1, 100}, std::pair{50, 60}, std::pair{1, 100000}}) {
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
  for (auto solve : {std::function<Answer()>([&] { return serial(x); }), std::function<Answer()>([&] { return omp(x, 1); })}) {
    try {
      solve();
      FAIL() << "not refused";
    } catch (const dpgpu::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("2^63 - 1"), std::string::npos) << e.what();
    }
  }
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
