// cpu.dfs and cpu.omp_dfs: node counts by hand and by an independent recursive count,
// optimal costs against brute force, serial and parallel counts identical with the optimal
// bound, the starting bound's parsing and errors.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>

#include "dfs.hpp"
#include "dpgpu/error.hpp"
#include "tsp/generators.hpp"
#include "tsp/reference.hpp"
#include "tsp/search_bound.hpp"

namespace {

using tsp::Instance;

Instance matrix(int n, std::vector<std::int64_t> d) {
  return tsp::make_instance(n, std::move(d), "hand");
}

// 4 cities; tours from 0: 0123 = 4 (optimal), 0132 = 12, 0213 = 9, 0231 = 6, 0312 = 8, 0321 = 9.
Instance four() {
  return matrix(4, {0, 1, 2, 3,  //
                    1, 0, 1, 5,  //
                    2, 1, 0, 1,  //
                    1, 2, 4, 0});
}

TEST(TspSearch, HandCountedFourCities) {
  const auto x = four();
  // Bound 4: root; 01 (1), 02 (2), 03 (3); 012 (2), 021 (3), 023 (3); 0123 (3). 8 nodes.
  for (auto r : {tsp::cpu::dfs(x, 4), tsp::cpu::omp_dfs(x, 4, 2, 1)}) {
    EXPECT_EQ(r.nodes, 8u);
    EXPECT_EQ(r.cost, 4);
    EXPECT_EQ(r.tour, (std::vector<std::int32_t>{0, 1, 2, 3}));
  }
  // Bound 3: root; 01 (1), 02 (2); 012 (2). 0123 costs 3, not below 3; its tour (4) is above. 4 nodes, no tour.
  const auto low = tsp::cpu::dfs(x, 3);
  EXPECT_EQ(low.nodes, 4u);
  EXPECT_EQ(low.cost, tsp::kNoBound);
  EXPECT_TRUE(low.tour.empty());
  // No bound, lexicographic order: 0123 is met first and the bound drops to 4 at once: 8 nodes again.
  const auto none = tsp::cpu::dfs(x, tsp::kNoBound);
  EXPECT_EQ(none.nodes, 8u);
  EXPECT_EQ(none.cost, 4);
  // Bound 0: nothing counts, not even the root.
  EXPECT_EQ(tsp::cpu::dfs(x, 0).nodes, 0u);
}

TEST(TspSearch, TourWithFreeReturnArcFoundAtTheOptimalBound) {
  // 012 costs 1 + 1 + 0 = 2 = the optimum; its path (2) does not count, its tour is held.
  const auto x = matrix(3, {0, 1, 5,  //
                            5, 0, 1,  //
                            0, 5, 0});
  for (auto r : {tsp::cpu::dfs(x, 2), tsp::cpu::omp_dfs(x, 2, 2, 1)}) {
    EXPECT_EQ(r.nodes, 2u);  // root and 01
    EXPECT_EQ(r.cost, 2);
    EXPECT_EQ(r.tour, (std::vector<std::int32_t>{0, 1, 2}));
  }
}

TEST(TspSearch, OneAndTwoCities) {
  const auto one = matrix(1, {0});
  auto r = tsp::cpu::dfs(one, 5);
  EXPECT_EQ(r.nodes, 1u);
  EXPECT_EQ(r.cost, 0);
  const auto two = matrix(2, {0, 3, 4, 0});
  r = tsp::cpu::dfs(two, 7);  // root (0), 01 (3); tour 7
  EXPECT_EQ(r.nodes, 2u);
  EXPECT_EQ(r.cost, 7);
  EXPECT_EQ(tsp::cpu::omp_dfs(two, 7, 2, 3).nodes, 2u);
}

// The rule written out recursively, independent of the bitset loop: paths from 0 whose cost
// is below `bound` (fixed).
std::uint64_t count_below(const Instance& x, std::int64_t bound) {
  std::vector<bool> on(std::size_t(x.n), false);
  std::function<std::uint64_t(int, std::int64_t)> walk = [&](int last,
                                                             std::int64_t cost) -> std::uint64_t {
    if (cost >= bound) return 0;
    std::uint64_t total = 1;
    for (int j = 0; j < x.n; ++j)
      if (!on[std::size_t(j)]) {
        on[std::size_t(j)] = true;
        total += walk(j, cost + x.arc(last, j));
        on[std::size_t(j)] = false;
      }
    return total;
  };
  on[0] = true;
  return walk(0, 0);
}

TEST(TspSearch, SerialParallelAndRecursiveCountsAgreeAtTheOptimum) {
  int checked = 0;
  for (int n = 2; n <= 10; ++n)
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      auto x = seed % 2 ? tsp::random_matrix(n, 0, 100, seed) : tsp::euclidean(n, 100, seed);
      const auto optimum = tsp::brute_force(x).cost;
      SCOPED_TRACE(x.name + " n=" + std::to_string(n) + " seed=" + std::to_string(seed));
      const auto serial = tsp::cpu::dfs(x, optimum);
      EXPECT_EQ(serial.nodes, count_below(x, optimum));
      EXPECT_EQ(serial.cost, optimum);
      EXPECT_EQ(tsp::Problem::check(x, {serial.tour}).objective, optimum);
      for (int split : {1, 2, 4, 9}) {
        const auto parallel = tsp::cpu::omp_dfs(x, optimum, 3, split);
        EXPECT_EQ(parallel.nodes, serial.nodes) << "split " << split;
        EXPECT_EQ(parallel.cost, optimum) << "split " << split;
        EXPECT_EQ(tsp::Problem::check(x, {parallel.tour}).objective, optimum);
      }
      // Without a bound both still find the optimum (their counts may differ from each other).
      EXPECT_EQ(tsp::cpu::dfs(x, tsp::kNoBound).cost, optimum);
      EXPECT_EQ(tsp::cpu::omp_dfs(x, tsp::kNoBound, 3, 2).cost, optimum);
      ++checked;
    }
  EXPECT_EQ(checked, 54);
}

TEST(TspSearch, TooManyCitiesRefused) {
  const auto x = tsp::random_matrix(65, 1, 9, 1);
  EXPECT_THROW(tsp::cpu::dfs(x, 10), std::invalid_argument);
}

TEST(TspSearchBound, ParsesTheThreeForms) {
  EXPECT_EQ(tsp::parse_initial_ub("optimal").kind, tsp::InitialBound::Kind::Optimal);
  EXPECT_EQ(tsp::parse_initial_ub("none").kind, tsp::InitialBound::Kind::None);
  const auto v = tsp::parse_initial_ub("1234");
  EXPECT_EQ(v.kind, tsp::InitialBound::Kind::Value);
  EXPECT_EQ(v.value, 1234);
  EXPECT_EQ(tsp::parse_initial_ub("0").value, 0);
}

TEST(TspSearchBound, BadFormsNamed) {
  for (const char* bad : {"", "-1", "12x", "Optimal", "+5", "1e6", " 5", "99999999999999999999"}) {
    try {
      tsp::parse_initial_ub(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const dpgpu::InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("initial_ub"), std::string::npos) << m;
      EXPECT_NE(m.find("'optimal', 'none'"), std::string::npos) << m;
    }
  }
}

TEST(TspSearchBound, StartingBounds) {
  auto x = four();
  EXPECT_EQ(tsp::starting_bound(x, {tsp::InitialBound::Kind::None, 0}), tsp::kNoBound);
  EXPECT_EQ(tsp::starting_bound(x, {tsp::InitialBound::Kind::Value, 17}), 17);
  try {
    tsp::starting_bound(x, {tsp::InitialBound::Kind::Optimal, 0});
    ADD_FAILURE() << "no optimum, yet accepted";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no known optimum"), std::string::npos) << e.what();
  }
  x.optimum = 4;
  EXPECT_EQ(tsp::starting_bound(x, {tsp::InitialBound::Kind::Optimal, 0}), 4);
}

}  // namespace
