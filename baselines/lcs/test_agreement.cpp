// Every CPU algorithm against the reference solver and each other, on many shapes.
#include <gtest/gtest.h>

#include <vector>

#include "lcs/generators.hpp"
#include "lcs/lcs.hpp"
#include "lcs/reference.hpp"
#include "lcs/lcs_cpu.hpp"

namespace {

namespace cpu = lcs::cpu;

struct WavefrontShape {
  int threads, tile;
};
// Tiles of 1, 7 (rarely a divisor), 64 (a power of two) and larger than the strings. Few
// threads and few diagonals when threaded: on a loaded machine each barrier can cost a
// scheduler time slice.
const std::vector<WavefrontShape> kWavefronts = {{1, 1}, {1, 7}, {1, 64}, {2, 64}, {2, 100000}};
const std::vector<WavefrontShape> kSmallTilesThreaded = {{1, 1}, {1, 64}, {2, 7}, {2, 16}};

// All algorithms on (a, b) must find `expected`; certificates must pass check().
void expect_all(const std::string& a, const std::string& b, std::int64_t expected,
                const std::vector<WavefrontShape>& wavefronts = kWavefronts) {
  SCOPED_TRACE(testing::Message() << "|a|=" << a.size() << " |b|=" << b.size());
  const lcs::Instance x{a, b};
  for (auto [name, cert] : {std::pair{"full_table", cpu::full_table(a, b)},
                            std::pair{"hirschberg", cpu::hirschberg(a, b)}}) {
    auto v = lcs::Problem::check(x, {cert});
    EXPECT_TRUE(v.ok) << name << ": " << v.message;
    EXPECT_EQ(v.objective, expected) << name;
  }
  EXPECT_EQ(cpu::linear(a, b), expected);
  EXPECT_EQ(cpu::linear(b, a), expected);
  EXPECT_EQ(cpu::bitparallel(a, b), expected);
  EXPECT_EQ(cpu::bitparallel(b, a), expected);
  for (int threads : {2, 3})
    EXPECT_EQ(cpu::bitparallel_threads(a, b, threads), expected) << threads << " threads";
  for (auto [threads, tile] : wavefronts)
    EXPECT_EQ(cpu::omp_wavefront(a, b, threads, tile), expected)
        << threads << " threads, tile " << tile;
}

void expect_all_match_reference(const std::string& a, const std::string& b) {
  expect_all(a, b, lcs::reference_length(a, b));
}

TEST(LcsCpuAgreement, TextbookPair) { expect_all("ABCBDAB", "BDCABA", 4); }

TEST(LcsCpuAgreement, EdgeSizesAndAlphabets) {
  const int sizes[] = {0, 1, 2, 63, 64, 65, 127, 129, 200};
  std::uint64_t seed = 1;
  for (int k : {1, 2, 4, 256})
    for (int n : sizes)
      for (int m : sizes) {
        auto x = lcs::random_pair(n, m, k, seed++);
        SCOPED_TRACE(testing::Message() << "alphabet " << k);
        expect_all(x.a, x.b, lcs::reference_length(x.a, x.b),
                   k == 4 ? kSmallTilesThreaded : kWavefronts);
      }
}

TEST(LcsCpuAgreement, OneStringMuchLongerThanTheOther) {
  const std::pair<int, int> shapes[] = {{3000, 1}, {3000, 5}, {1, 2500}, {4097, 300}, {257, 2049}};
  std::uint64_t seed = 100;
  for (int k : {2, 4, 20})
    for (auto [n, m] : shapes) {
      auto x = lcs::random_pair(n, m, k, seed++);
      expect_all_match_reference(x.a, x.b);
    }
}

TEST(LcsCpuAgreement, LargerRandomPairs) {
  auto x = lcs::random_pair(1500, 1400, 4, 7);
  expect_all_match_reference(x.a, x.b);
  auto y = lcs::random_pair(1000, 1100, 256, 8);
  expect_all_match_reference(y.a, y.b);
  // More threads than tiles on most diagonals, and than cores.
  EXPECT_EQ(cpu::omp_wavefront(x.a, x.b, 4, 300), lcs::reference_length(x.a, x.b));
}

TEST(LcsCpuAgreement, IdenticalAndUnarySequences) {
  auto x = lcs::random_pair(1000, 0, 4, 9);
  expect_all(x.a, x.a, 1000);
  expect_all(std::string(700, 'A'), std::string(300, 'A'), 300);
  expect_all(std::string(500, 'A'), std::string(500, 'C'), 0);
}

TEST(LcsCpuAgreement, PlantedLengthsAreFoundExactly) {
  const std::pair<int, int> shapes[] = {{0, 0}, {1, 1}, {100, 100}, {1000, 700}, {700, 1000}};
  std::uint64_t seed = 50;
  for (int k : {3, 4, 256})
    for (double f : {0.0, 0.3, 0.5, 1.0})
      for (auto [n, m] : shapes) {
        auto p = lcs::planted_pair(n, m, k, f, seed++);
        SCOPED_TRACE(testing::Message() << "planted k=" << k << " f=" << f);
        expect_all(p.instance.a, p.instance.b, p.lcs_length);
      }
}

// Past one strip of the bit vector (512 words = 32768 bits): carries between strips.
TEST(LcsCpuAgreement, BitVectorLongerThanOneStrip) {
  auto x = lcs::random_pair(70001, 300, 4, 11);
  const auto expected = cpu::linear(x.a, x.b);
  EXPECT_EQ(expected, lcs::reference_length(x.a, x.b));
  EXPECT_EQ(cpu::bitparallel(x.a, x.b), expected);
  EXPECT_EQ(cpu::bitparallel(x.b, x.a), expected);
  EXPECT_EQ(cpu::omp_wavefront(x.a, x.b, 2, 256), expected);
  // Long runs of ones carry through whole words and strips.
  const std::string ones(70000, 'A');
  EXPECT_EQ(cpu::bitparallel(ones, std::string(300, 'A')), 300);
  auto p = lcs::planted_pair(70000, 400, 4, 0.9, 12);
  EXPECT_EQ(cpu::bitparallel(p.instance.a, p.instance.b), p.lcs_length);
  // Threads: strips of about 1100 words each, chunks of 256 rows handed over.
  for (int threads : {2, 4}) {
    EXPECT_EQ(cpu::bitparallel_threads(x.a, x.b, threads), expected) << threads;
    EXPECT_EQ(cpu::bitparallel_threads(ones, std::string(300, 'A'), threads), 300) << threads;
    EXPECT_EQ(cpu::bitparallel_threads(p.instance.a, p.instance.b, threads), p.lcs_length)
        << threads;
  }
  const auto q = lcs::random_pair(9000, 1100, 4, 16);  // more than one chunk of rows
  EXPECT_EQ(cpu::bitparallel_threads(q.a, q.b, 3), lcs::reference_length(q.a, q.b));
}

// A poll that throws after `allowed` calls, counting them.
struct Stop {};
cpu::Poll stop_after(int allowed, int& calls) {
  return [allowed, &calls] {
    if (++calls > allowed) throw Stop{};
  };
}

// How many polls `run(poll)` made before a poll that throws after `allowed` stopped it
// (-1 if it was not stopped).
template <class Run>
int polls_until_stopped(int allowed, Run run) {
  int calls = 0;
  try {
    run(stop_after(allowed, calls));
  } catch (const Stop&) {
    return calls;
  }
  return -1;
}

TEST(LcsCpuDeadline, EveryAlgorithmPollsAndStops) {
  auto x = lcs::random_pair(3000, 3000, 4, 13);  // 9M cells: more than one poll interval
  EXPECT_EQ(polls_until_stopped(0, [&](auto poll) { cpu::full_table(x.a, x.b, poll); }), 1);
  EXPECT_EQ(polls_until_stopped(0, [&](auto poll) { cpu::linear(x.a, x.b, poll); }), 1);
  EXPECT_EQ(polls_until_stopped(0, [&](auto poll) { cpu::hirschberg(x.a, x.b, poll); }), 1);
  EXPECT_EQ(polls_until_stopped(3, [&](auto poll) { cpu::omp_wavefront(x.a, x.b, 2, 64, poll); }),
            4);
  auto big = lcs::random_pair(40000, 3000, 4, 14);  // 1.9M word operations
  EXPECT_EQ(polls_until_stopped(0, [&](auto poll) { cpu::bitparallel(big.a, big.b, poll); }), 1);
  EXPECT_GE(
      polls_until_stopped(0, [&](auto poll) { cpu::bitparallel_threads(big.a, big.b, 2, poll); }),
      1);
}

TEST(LcsCpuDeadline, PollThatNeverThrowsChangesNothing) {
  auto x = lcs::random_pair(2000, 2100, 4, 15);
  int calls = 0;
  const auto poll = stop_after(1 << 30, calls);
  const auto expected = cpu::linear(x.a, x.b);
  EXPECT_EQ(cpu::omp_wavefront(x.a, x.b, 2, 128, poll), expected);
  EXPECT_EQ(cpu::linear(x.a, x.b, poll), expected);
  EXPECT_EQ(std::int64_t(cpu::hirschberg(x.a, x.b, poll).size()), expected);
  EXPECT_GT(calls, 0);
}

}  // namespace
