// The search solvers on shared TSPLIB files, read by the shared reader with their optimum
// from OPTIMA.tsv (skipped where the shared data folder is absent).
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <cstdlib>

#include "dfs.hpp"
#include "tsp/search_bound.hpp"
#include "tsp/tsp.hpp"

namespace {

namespace fs = std::filesystem;

fs::path shared_tsplib() { return dpgpu::shared_data_dir("tsplib"); }

TEST(TspSharedSearch, EveryFileCarriesItsOptimumOnTheInstance) {
  auto dir = shared_tsplib();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  int with_optimum = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto ext = entry.path().extension();
    if (ext != ".tsp" && ext != ".atsp") continue;
    const auto loaded = tsp::Problem::load({{entry.path()}, ""}).at(0);
    EXPECT_EQ(loaded.instance.optimum, loaded.known_optimum) << entry.path();
    with_optimum += loaded.instance.optimum.has_value();
  }
  EXPECT_GE(with_optimum, 30);  // every file of the shared folder is in its OPTIMA.tsv
}

tsp::Instance load(const char* file) {
  auto loaded = tsp::Problem::load({{shared_tsplib() / file}, ""}).at(0);
  return loaded.instance;
}

void expect_optimal(const tsp::Instance& x, const tsp::cpu::SearchResult& r) {
  EXPECT_EQ(r.cost, *x.optimum);
  auto v = tsp::Problem::check(x, {r.tour});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, *x.optimum);
}

// burma14 (symmetric, GEO): ~6.4e7 nodes at the optimum, about a second each.
TEST(TspSharedSearch, Burma14SerialAndParallelAgree) {
  if (shared_tsplib().empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  const auto x = load("burma14.tsp");
  ASSERT_EQ(x.optimum, 3323);
  const auto bound = tsp::starting_bound(x, tsp::parse_initial_ub("optimal"));
  const auto serial = tsp::cpu::dfs(x, bound);
  const auto parallel = tsp::cpu::omp_dfs(x, bound, 2);
  expect_optimal(x, serial);
  expect_optimal(x, parallel);
  EXPECT_EQ(serial.nodes, parallel.nodes);
}

// br17 (ATSP, FULL_MATRIX, many zero arcs): ~8.9e8 nodes at the optimum, ~9 s on 2 threads.
TEST(TspSharedSearch, Br17AtspReachesItsOptimum) {
  if (shared_tsplib().empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  const auto x = load("br17.atsp");
  ASSERT_EQ(x.optimum, 39);
  EXPECT_FALSE(x.symmetric);
  expect_optimal(x, tsp::cpu::omp_dfs(x, *x.optimum, 2));
}

}  // namespace
