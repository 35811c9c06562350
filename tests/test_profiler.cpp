// The ncu CSV parser and the sampling plan. Fixture: tests/fixtures/ncu-raw.csv, as
// `ncu --csv --page raw --metrics ...` printed it on the H100 (kept with DPGPU_KEEP_NCU).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "profiler.hpp"

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::filesystem::path(DPGPU_TEST_FIXTURES) / name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(Profiler, PaperNamesMapToHopperMetrics) {
  auto m = dpgpu::resolve_metrics({"gld_efficiency", "ipc", "sm__cycles_elapsed.avg"});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].ncu, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  EXPECT_EQ(m[1].ncu, "sm__inst_executed.avg.per_cycle_active");
  EXPECT_EQ(m[2].ncu, "sm__cycles_elapsed.avg") << "raw names pass through";
  EXPECT_EQ(dpgpu::paper_metrics().size(), 7u);
}

TEST(Profiler, SamplingPlanSpreadsOverMarkedLaunches) {
  auto all = dpgpu::plan_profile(200, 120, 120);
  EXPECT_EQ(all.stride, 0);
  EXPECT_EQ(all.sampling, "all 120");
  auto spread = dpgpu::plan_profile(200, 5000, 5000);
  EXPECT_EQ(spread.stride, 25);
  EXPECT_EQ(spread.launch_count, 200);
  auto first = dpgpu::plan_profile(200, 5000, 0);
  EXPECT_EQ(first.stride, 0);
  EXPECT_EQ(first.sampling, "first 200 of 5000") << "unmarked launches: only a prefix can be chosen";
}

TEST(Profiler, ParsesSyntheticRawPage) {
  const std::string text =
      "==PROF== Connected to process 1\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
      "\"sm__inst_executed.avg.per_cycle_active\",\"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst/cycle\",\"%\"\n"
      "\"0\",\"9\",\"dpgpu\",\"vm\",\"void k<16>(int*, int)\",\"1\",\"13\",\"0.50\",\"100\"\n"
      "\"1\",\"9\",\"dpgpu\",\"vm\",\"void k<16>(int*, int)\",\"1\",\"13\",\"1.50\",\"50\"\n"
      "\"2\",\"9\",\"dpgpu\",\"vm\",\"other(float)\",\"1\",\"13\",\"2\",\"n/a\"\n"
      "==PROF== Disconnected from process 1\n";
  std::int64_t launches = 0;
  auto stats = dpgpu::parse_ncu_csv(text, dpgpu::resolve_metrics({"ipc", "gld_efficiency"}), &launches);
  EXPECT_EQ(launches, 3);
  ASSERT_EQ(stats.size(), 3u);  // k: ipc, gld; other: ipc (its gld is n/a)
  for (auto& s : stats) {
    if (s.kernel == "void k<16>(int*, int)" && s.metric == "ipc") {
      EXPECT_DOUBLE_EQ(s.min, 0.5);
      EXPECT_DOUBLE_EQ(s.mean, 1.0);
      EXPECT_DOUBLE_EQ(s.max, 1.5);
      EXPECT_EQ(s.count, 2);
      EXPECT_EQ(s.unit, "inst/cycle");
    }
    if (s.metric == "gld_efficiency") EXPECT_DOUBLE_EQ(s.mean, 75);
  }
}

TEST(Profiler, ParsesRecordedH100Output) {
  const std::string text = fixture("ncu-raw.csv");
  if (text.empty()) GTEST_SKIP() << "no recorded fixture";
  std::int64_t launches = 0;
  auto stats = dpgpu::parse_ncu_csv(text, dpgpu::resolve_metrics(dpgpu::default_metrics()), &launches);
  EXPECT_GT(launches, 0);
  ASSERT_FALSE(stats.empty());
  for (auto& s : stats) {
    EXPECT_LE(s.min, s.mean);
    EXPECT_LE(s.mean, s.max);
    if (s.metric != "ipc") {
      EXPECT_GE(s.min, 0);
      EXPECT_LE(s.max, 100.0001);
    }
  }
}
