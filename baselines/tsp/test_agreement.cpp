// Both Held-Karp solvers against the brute-force reference, and against each other.
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>

#include "tsp/generators.hpp"
#include "tsp/reference.hpp"
#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"

namespace {

using tsp::Instance;

// The tour is a valid certificate and its recomputed cost is what the solver reported.
void expect_certified(const Instance& x, const tsp::cpu::Tour& t, const char* solver) {
  auto v = tsp::Problem::check(x, {t.tour});
  EXPECT_TRUE(v.ok) << solver << " on " << x.name << ": " << v.message;
  EXPECT_EQ(v.objective, t.cost) << solver << " on " << x.name;
  ASSERT_FALSE(t.tour.empty());
  EXPECT_EQ(t.tour.front(), 0) << solver;
}

void expect_all_optimal(const Instance& x) {
  SCOPED_TRACE(x.name + " n=" + std::to_string(x.n));
  const auto reference = tsp::brute_force(x);
  const auto serial = tsp::cpu::held_karp(x);
  EXPECT_EQ(serial.cost, reference.cost);
  expect_certified(x, serial, "held_karp");
  // One thread with whole layers in one block; three threads with one subset per block (every
  // block boundary, more threads than this 2-core machine has: spinning stays throttled).
  for (auto [threads, block] :
       {std::pair{1, tsp::cpu::kDefaultBlock}, std::pair{3, std::uint64_t{1}}}) {
    const auto layered = tsp::cpu::omp_held_karp(x, threads, block);
    EXPECT_EQ(layered.cost, reference.cost) << threads << " threads, block " << block;
    expect_certified(x, layered, "omp_held_karp");
  }
}

TEST(TspHeldKarp, MatchesBruteForceOnEuclideanInstances) {
  for (int n = 1; n <= 9; ++n)
    for (std::uint64_t seed = 0; seed < 12; ++seed)
      expect_all_optimal(tsp::euclidean(n, 1000, seed));
}

TEST(TspHeldKarp, MatchesBruteForceWithDuplicatePoints) {
  // A 3 × 3 grid of places for up to 9 cities: many coincide (zero arcs, many ties).
  for (int n = 1; n <= 9; ++n)
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
      auto x = tsp::euclidean(n, 3, seed);
      expect_all_optimal(x);
    }
  int zeros = 0;
  auto x = tsp::euclidean(9, 3, 1);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) zeros += i != j && x.arc(i, j) == 0;
  EXPECT_GT(zeros, 0);  // the case above really has coinciding points
}

TEST(TspHeldKarp, MatchesBruteForceOnAsymmetricMatrices) {
  for (int n = 1; n <= 9; ++n)
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
      expect_all_optimal(tsp::random_matrix(n, 1, 1000, seed));
      expect_all_optimal(tsp::random_matrix(n, 0, 2, seed));  // ties everywhere
    }
}

TEST(TspHeldKarp, SixtyFourBitCellsWhenCostsNeedThem) {
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    auto x = tsp::random_matrix(8, tsp::kMaxWeight / 2, tsp::kMaxWeight, seed);
    EXPECT_EQ(tsp::cpu::held_karp_cell_bytes(x), 8u);
    expect_all_optimal(x);
  }
  EXPECT_EQ(tsp::cpu::held_karp_cell_bytes(tsp::random_matrix(8, 1, 1000, 1)), 4u);
}

TEST(TspHeldKarp, TwoAndThreeCitiesByHand) {
  auto two = tsp::make_instance(2, {0, 5, 9, 0}, "two");
  EXPECT_EQ(tsp::cpu::held_karp(two).cost, 14);
  EXPECT_EQ(tsp::cpu::omp_held_karp(two, 1).cost, 14);
  EXPECT_EQ(tsp::cpu::held_karp(two).tour, (std::vector<std::int32_t>{0, 1}));
  // 0→1→2→0 costs 1 + 1 + 1; the other direction 10 + 10 + 10.
  auto three = tsp::make_instance(3, {0, 1, 10, 10, 0, 1, 1, 10, 0}, "three");
  for (auto t : {tsp::cpu::held_karp(three), tsp::cpu::omp_held_karp(three, 2)}) {
    EXPECT_EQ(t.cost, 3);
    EXPECT_EQ(t.tour, (std::vector<std::int32_t>{0, 1, 2}));
  }
  auto one = tsp::make_instance(1, {42}, "one");
  EXPECT_EQ(tsp::cpu::held_karp(one).tour, (std::vector<std::int32_t>{0}));
  EXPECT_EQ(tsp::cpu::omp_held_karp(one, 0).cost, 0);
}

TEST(TspHeldKarp, BothLayoutsAgreeBeyondBruteForce) {
  for (std::uint64_t seed = 0; seed < 3; ++seed)
    for (auto x : {tsp::euclidean(15, 1000, seed), tsp::random_matrix(15, 1, 1000, seed),
                   tsp::euclidean(14, 4, seed)}) {
      const auto serial = tsp::cpu::held_karp(x);
      const auto layered = tsp::cpu::omp_held_karp(x, 2);
      EXPECT_EQ(serial.cost, layered.cost) << x.name << " seed " << seed;
      expect_certified(x, serial, "held_karp");
      expect_certified(x, layered, "omp_held_karp");
      const auto ragged = tsp::cpu::omp_held_karp(x, 3, 7);  // blocks that split layers unevenly
      EXPECT_EQ(ragged.cost, serial.cost) << x.name << " seed " << seed;
      expect_certified(x, ragged, "omp_held_karp");
    }
}

TEST(TspHeldKarp, MemoryGrowsAsTheTables) {
  auto x20 = tsp::euclidean(20, 1000, 1);
  // 2^19 subsets × 19 cells × (4 cost + 1 predecessor bytes) + 19² matrix cells + the tour.
  EXPECT_EQ(tsp::cpu::held_karp_bytes(x20), (1ull << 19) * 19 * 5 + 19 * 19 * 4 + 20 * 4);
  // Layered: predecessors for all layers (19·2^18 - 19 cells) and two layers of costs.
  EXPECT_LT(tsp::cpu::omp_held_karp_bytes(x20), tsp::cpu::held_karp_bytes(x20) / 2);
  EXPECT_GT(tsp::cpu::omp_held_karp_bytes(x20), 19ull << 18);
  auto x30 = tsp::euclidean(30, 1000, 1);
  EXPECT_EQ(tsp::cpu::held_karp_bytes(x30),
            (1ull << 29) * 29 * 5 + 29 * 29 * 4 + 30 * 4);  // 72.5 GiB
  // Layered, n = 30 needs 29·2^28 predecessor bytes plus two layers: about 15.6 GiB.
  EXPECT_GT(tsp::cpu::omp_held_karp_bytes(x30), 29ull << 28);
  EXPECT_LT(tsp::cpu::omp_held_karp_bytes(x30), 16ull << 30);
  auto huge = tsp::euclidean(200, 1000, 1);
  EXPECT_EQ(tsp::cpu::held_karp_bytes(huge), UINT64_MAX);
  EXPECT_EQ(tsp::cpu::omp_held_karp_bytes(huge), UINT64_MAX);
  EXPECT_THROW(tsp::cpu::held_karp(huge), std::bad_alloc);
  EXPECT_THROW(tsp::cpu::omp_held_karp(huge, 1), std::bad_alloc);
}

struct Stop {};

TEST(TspHeldKarp, PollStopsBoth) {
  auto x = tsp::euclidean(18, 1000, 2);
  int calls = 0;
  tsp::cpu::Poll poll = [&] {
    if (++calls >= 2) throw Stop{};  // the first poll of the layered solver is between layers
  };
  EXPECT_THROW(tsp::cpu::held_karp(x, poll), Stop);
  calls = 0;
  EXPECT_THROW(tsp::cpu::omp_held_karp(x, 2, tsp::cpu::kDefaultBlock, poll), Stop);
}

}  // namespace
