// The ncu CSV parser and the sampling plan. Fixture: tests/fixtures/ncu-raw.csv, as
// `ncu --csv --page raw --metrics ...` printed it on the H100 (kept with DPGPU_KEEP_NCU).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "dpgpu/text_file.hpp"
#include "profile/profiler.hpp"

namespace {

std::filesystem::path fixture_path(const std::string& name) {
  return std::filesystem::path(DPGPU_TEST_FIXTURES) / name;
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
  EXPECT_EQ(first.sampling, "first 200 of 5000")
      << "unmarked launches: only a prefix can be chosen";
}

TEST(Profiler, ParsesSyntheticRawPage) {
  const std::string text =
      "==PROF== Connected to process 1\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
      "\"sm__inst_executed.avg.per_cycle_active\",\"smsp__sass_average_data_bytes_per_sector_mem_"
      "global_op_ld.pct\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst/cycle\",\"%\"\n"
      "\"0\",\"9\",\"dpgpu\",\"vm\",\"void k<16>(int*, int)\",\"1\",\"13\",\"0.50\",\"100\"\n"
      "\"1\",\"9\",\"dpgpu\",\"vm\",\"void k<16>(int*, int)\",\"1\",\"13\",\"1.50\",\"50\"\n"
      "\"2\",\"9\",\"dpgpu\",\"vm\",\"other(float)\",\"1\",\"13\",\"2\",\"n/a\"\n"
      "==PROF== Disconnected from process 1\n";
  std::int64_t launches = 0;
  auto stats =
      dpgpu::parse_ncu_csv(text, dpgpu::resolve_metrics({"ipc", "gld_efficiency"}), &launches);
  EXPECT_EQ(launches, 3);
  ASSERT_EQ(stats.size(), 3u);  // k: ipc, gld; other: ipc (its gld is n/a)
  std::map<std::pair<std::string, std::string>, const dpgpu::MetricStat*> by;
  for (auto& s : stats) by[{s.kernel, s.metric}] = &s;
  ASSERT_EQ(by.size(), 3u);
  const auto& k_ipc = *by.at({"void k<16>(int*, int)", "ipc"});
  EXPECT_DOUBLE_EQ(k_ipc.min, 0.5);
  EXPECT_DOUBLE_EQ(k_ipc.mean, 1.0);
  EXPECT_DOUBLE_EQ(k_ipc.max, 1.5);
  EXPECT_EQ(k_ipc.count, 2);
  EXPECT_EQ(k_ipc.unit, "inst/cycle");
  EXPECT_DOUBLE_EQ(by.at({"void k<16>(int*, int)", "gld_efficiency"})->mean, 75);
  const auto& other = *by.at({"other(float)", "ipc"});
  EXPECT_DOUBLE_EQ(other.mean, 2);
  EXPECT_EQ(other.count, 1);
  EXPECT_FALSE(by.count({"other(float)", "gld_efficiency"})) << "n/a is no value";
}

// 18 launches of one Held-Karp layer kernel, three metrics each, as ncu printed them.
TEST(Profiler, ParsesRecordedH100Output) {
  const std::string text =
      dpgpu::read_whole_file(fixture_path("ncu-raw.csv"));  // throws when missing
  std::int64_t launches = 0;
  auto stats =
      dpgpu::parse_ncu_csv(text, dpgpu::resolve_metrics(dpgpu::default_metrics()), &launches);
  EXPECT_EQ(launches, 18);
  ASSERT_EQ(stats.size(), 3u) << "one kernel, three metrics";
  std::map<std::string, const dpgpu::MetricStat*> by_metric;
  for (auto& s : stats) {
    EXPECT_EQ(s.kernel.rfind("void held_karp_layer<int, 1, 1, 1>(", 0), 0u) << s.kernel;
    EXPECT_EQ(s.count, 18) << s.metric;
    by_metric[s.metric] = &s;
  }
  ASSERT_EQ(by_metric.size(), 3u);
  const auto& ipc = *by_metric.at("ipc");
  EXPECT_DOUBLE_EQ(ipc.min, 0.14);
  EXPECT_DOUBLE_EQ(ipc.max, 1.80);
  EXPECT_NEAR(ipc.mean, 0.8739, 1e-4);
  EXPECT_EQ(ipc.unit, "inst/cycle");
  const auto& gld = *by_metric.at("gld_efficiency");
  EXPECT_DOUBLE_EQ(gld.min, 26.87);
  EXPECT_DOUBLE_EQ(gld.max, 94.27);
  EXPECT_NEAR(gld.mean, 62.8961, 1e-4);
  EXPECT_EQ(gld.unit, "%");
  const auto& warp = *by_metric.at("warp_execution_efficiency");
  EXPECT_DOUBLE_EQ(warp.min, 14.15);
  EXPECT_DOUBLE_EQ(warp.max, 98.06);
  EXPECT_NEAR(warp.mean, 88.4433, 1e-4);
}
