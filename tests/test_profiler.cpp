// The ncu CSV parser and the sampling plan. Fixture: tests/fixtures/ncu-raw.csv, as
// `ncu --csv --page raw --metrics ...` printed it on the H100 (kept with DPGPU_KEEP_NCU).
#include <gtest/gtest.h>

#include <algorithm>
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
  EXPECT_EQ(all.stride, 1) << "a solver that marks its launches: the marked ones, all of them";
  EXPECT_EQ(all.sampling, "all 120");
  auto spread = dpgpu::plan_profile(200, 5000, 5000);
  EXPECT_EQ(spread.stride, 25);
  EXPECT_EQ(spread.launch_count, 200);
  auto first = dpgpu::plan_profile(200, 5000, 0);
  EXPECT_EQ(first.stride, 0);
  EXPECT_EQ(first.launch_count, 200);
  EXPECT_EQ(first.sampling, "first 200 of 5000")
      << "unmarked launches: only a prefix can be chosen";
  auto few = dpgpu::plan_profile(200, 120, 0);
  EXPECT_EQ(few.stride, 0);
  EXPECT_EQ(few.sampling, "all 120");
}

// Issue 35 item 18: TSP n = 14 marks its 12 layer launches; max_launches 20. ncu was given
// --launch-count 20 from the start of the process and profiled the 12 launches of the solve
// and 8 of the energy window's next solve, CUPTI the 12 marked ones. Both now take the
// marked launches of one solve: ncu with profiling off between marks, its worker solving once.
TEST(Profiler, NcuProfilesTheMarkedLaunchesOfOneSolveAsCuptiDoes) {
  for (auto [total, marked] : {std::pair{12.0, 12.0}, std::pair{30.0, 12.0}}) {
    const auto plan = dpgpu::plan_profile(20, total, marked);
    SCOPED_TRACE(plan.sampling);
    EXPECT_EQ(plan.stride, 1) << "every marked launch, and only marked ones";
    const auto argv =
        dpgpu::ncu_argv("ncu", dpgpu::resolve_metrics({"ipc"}), plan, {}, "/tmp/p", "/bin/dpgpu");
    auto at = std::find(argv.begin(), argv.end(), "--profile-from-start");
    ASSERT_NE(at, argv.end()) << "ncu must skip the launches outside the marks";
    EXPECT_EQ(*(at + 1), "off");
    auto count = std::find(argv.begin(), argv.end(), "--launch-count");
    ASSERT_NE(count, argv.end());
    EXPECT_EQ(*(count + 1), "20");
    EXPECT_LT(at - argv.begin(), std::find(argv.begin(), argv.end(), "/bin/dpgpu") - argv.begin())
        << "ncu's options come before the worker's command line";
    const auto env = dpgpu::ncu_environment(plan, {{"CUDA_VISIBLE_DEVICES=1"}, ""});
    EXPECT_NE(std::find(env.begin(), env.end(), "DPGPU_PROFILE_STRIDE=1"), env.end());
    EXPECT_NE(std::find(env.begin(), env.end(), "CUDA_VISIBLE_DEVICES=1"), env.end());
  }
  EXPECT_EQ(dpgpu::plan_profile(20, 30, 12).sampling, "all 12 marked of 30")
      << "not 'first 20 of 30': neither backend profiles unmarked launches";

  dpgpu::WorkerRequest req;
  req.measure.repetitions = 5, req.measure.max_repetitions = 9, req.measure.warmup = 2;
  req.measure.max_noise = 0.05, req.measure.energy_window_s = 1, req.measure.cold = true;
  req.measure.series = true;
  const auto one = dpgpu::ncu_request(req);
  EXPECT_EQ(one.measure.repetitions, 1);
  EXPECT_EQ(one.measure.max_repetitions, 1);
  EXPECT_FALSE(one.measure.max_noise);
  EXPECT_EQ(one.measure.warmup, 0);
  EXPECT_EQ(one.measure.energy_window_s, 0) << "no extra solves whose launches ncu would count";
  EXPECT_FALSE(one.measure.cold) << "no flush kernel before the solve";
  EXPECT_FALSE(one.measure.series);
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
