// The readers on the shared data folder (skipped where it is absent): every file loads, every
// instance gets a known optimum, and small ones agree with the brute-force reference.
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <cstdlib>

#include "knapsack/knapsack.hpp"
#include "knapsack/reference.hpp"

namespace {

namespace fs = std::filesystem;
using Loaded = dpgpu::Loaded<knapsack::Instance>;

fs::path shared_knapsack() { return dpgpu::shared_data_dir("knapsack"); }

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(KnapsackSharedFiles, EveryFileLoadsWithKnownOptima) {
  auto dir = shared_knapsack();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  struct Folder {
    const char* name;
    std::size_t files, instances;
  };
  // Counts from the data README: 21 large_scale files, 5 CSV files of 100, 2 kplib files.
  for (auto f : {Folder{"pisinger_large_scale", 21, 21}, Folder{"pisinger_csv", 5, 500},
                 Folder{"kplib_subsetsum", 2, 2}}) {
    const auto files = files_in(dir / f.name);
    EXPECT_EQ(files.size(), f.files) << f.name;
    std::size_t instances = 0;
    for (auto& path : files) {
      for (auto& l : knapsack::Problem::load({{path}, ""})) {
        ++instances;
        ASSERT_TRUE(l.known_optimum.has_value()) << path << " " << l.name;
        // An optimum is feasible, so it cannot exceed the total value.
        std::int64_t total = 0;
        for (auto v : l.instance.value) total += v;
        EXPECT_LE(*l.known_optimum, total) << l.name;
        EXPECT_GT(*l.known_optimum, 0) << l.name;
      }
    }
    EXPECT_EQ(instances, f.instances) << f.name;
  }
}

TEST(KnapsackSharedFiles, KplibSubsetSumOptimaFillTheKnapsack) {
  auto dir = shared_knapsack();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  for (auto& path : files_in(dir / "kplib_subsetsum")) {
    auto l = knapsack::Problem::load({{path}, ""}).at(0);
    EXPECT_EQ(l.instance.value, l.instance.weight) << path;    // subset sum: p = w
    EXPECT_EQ(*l.known_optimum, l.instance.capacity) << path;  // the README's statement
  }
}

TEST(KnapsackSharedFiles, SelectFindsTheOddlyNamedFirstInstance) {
  auto dir = shared_knapsack();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  // The file's first instance is written "napPI_..." (sic); names are kept as written.
  auto one =
      knapsack::Problem::load({{dir / "pisinger_csv/knapPI_11_20_1000.csv"}, "napPI_11_20_1000_1"});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].instance.size(), 20u);
}

TEST(KnapsackSharedFiles, BruteForceReachesTheRecordedOptimaOfTwentyItemInstances) {
  auto dir = shared_knapsack();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  auto all = knapsack::Problem::load({{dir / "pisinger_csv/knapPI_11_20_1000.csv"}, ""});
  for (std::size_t k = 0; k < 6; ++k)
    EXPECT_EQ(knapsack::brute_force_optimum(all[k].instance), *all[k].known_optimum) << all[k].name;
}

}  // namespace
