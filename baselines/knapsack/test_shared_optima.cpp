// The solvers reach the recorded optima of the shared data files (skipped where the folder is
// absent). Sizes are chosen for the test budget: n·C at most ~2·10^7 per DP run, and branch
// and bound under a deadline, so an instance it cannot finish fails instead of hanging.
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "knapsack/knapsack.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using Loaded = dpgpu::Loaded<knapsack::Instance>;
using knapsack::testing::expect_optimal;

fs::path shared_knapsack() { return dpgpu::shared_data_dir("knapsack"); }

std::vector<Loaded> load(const fs::path& file) { return knapsack::Problem::load({{file}, ""}); }

double cells(const knapsack::Instance& x) { return knapsack::Problem::work(x); }

knapsack::cpu::Poll deadline_in(std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  return [deadline] {
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("branch and bound ran past its test deadline");
  };
}

struct Run {
  bool dp = true, branch_bound = true;
};

void expect_solvers_reach_optimum(const Loaded& l, Run run) {
  ASSERT_TRUE(l.known_optimum.has_value()) << l.name;
  const auto& x = l.instance;
  if (run.dp) {
    expect_optimal(x, knapsack::cpu::dp(x), *l.known_optimum, l.name + " cpu.dp");
    expect_optimal(x, knapsack::cpu::omp_dp(x, 2), *l.known_optimum, l.name + " cpu.omp_dp");
  }
  if (!run.branch_bound) return;
  knapsack::cpu::Packing packing;
  ASSERT_NO_THROW(packing = knapsack::cpu::branch_bound(x, deadline_in(std::chrono::seconds(5))))
      << l.name;
  expect_optimal(x, packing, *l.known_optimum, l.name + " cpu.branch_bound");
}

TEST(KnapsackSharedOptima, LargeScaleFilesUpToTwoThousandItems) {
  auto dir = shared_knapsack();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  int ran = 0;
  for (int cls : {1, 2, 3})
    for (int n : {100, 200, 500, 1000, 2000}) {
      auto l = load(dir / "pisinger_large_scale" /
                    ("knapPI_" + std::to_string(cls) + "_" + std::to_string(n) + "_1000_1"))
                   .at(0);
      ASSERT_LE(cells(l.instance), 2.1e7) << l.name;
      // Plain branch and bound is exponential on strongly correlated instances: n = 1000
      // already takes ~3·10^6 nodes, n = 2000 more than the test budget.
      expect_solvers_reach_optimum(l, {.dp = true, .branch_bound = !(cls == 3 && n > 1000)});
      ++ran;
    }
  EXPECT_EQ(ran, 15);
}

TEST(KnapsackSharedOptima, FirstInstancesOfEachCsvFile) {
  auto dir = shared_knapsack();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  struct File {
    const char* name;
    std::size_t first;  // instances tried: the DP budget decides
  };
  for (auto f : {File{"knapPI_1_50_1000.csv", 20}, File{"knapPI_9_50_1000.csv", 5},
                 File{"knapPI_11_20_1000.csv", 20}, File{"knapPI_1_50_100000.csv", 3},
                 File{"knapPI_1_100_100000.csv", 2}}) {
    auto all = load(dir / "pisinger_csv" / f.name);
    ASSERT_GE(all.size(), f.first) << f.name;
    for (std::size_t k = 0; k < f.first; ++k) {
      ASSERT_LE(cells(all[k].instance), 2e7) << all[k].name;
      expect_solvers_reach_optimum(all[k], {});
    }
  }
}

TEST(KnapsackSharedOptima, KplibSubsetSum) {
  auto dir = shared_knapsack();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  expect_solvers_reach_optimum(load(dir / "kplib_subsetsum/n00100_R01000_s000.kp").at(0), {});
  // n = 1000, C = 245972: too many cells for the test budget's DP, not for branch and bound.
  expect_solvers_reach_optimum(load(dir / "kplib_subsetsum/n01000_R01000_s000.kp").at(0),
                               {.dp = false});
}

}  // namespace
