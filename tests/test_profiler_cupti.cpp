// The CUPTI backend's host side, which needs no GPU: metric names against CUPTI's list for
// the H100 (GH100), units written as ncu writes them, the counter-permission message, and
// the profile request and record crossing the worker boundary as JSON.
#include <gtest/gtest.h>

#include "records/case_result.hpp"
#include "records/case_spec.hpp"
#include "profile/profiler.hpp"
#include "profile/profiler_cupti.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(ProfilerCupti, PaperMetricsAreKnownOnTheH100) {
  if (!dpgpu::cupti_built()) GTEST_SKIP() << "dpgpu built without CUPTI";
  std::vector<std::string> hopper;
  for (auto& [paper, metric] : dpgpu::paper_metrics()) hopper.push_back(metric);
  EXPECT_EQ(dpgpu::cupti_unknown_metrics(hopper, "GH100"), std::vector<std::string>{});
}

TEST(ProfilerCupti, UnknownMetricIsNamed) {
  if (!dpgpu::cupti_built()) GTEST_SKIP() << "dpgpu built without CUPTI";
  auto unknown = dpgpu::cupti_unknown_metrics(
      {"sm__inst_executed.avg.per_cycle_active", "gld_efficency"}, "GH100");
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_TRUE(contains(unknown[0], "gld_efficency")) << unknown[0];
}

TEST(ProfilerCupti, UnitsAreWrittenAsNcuWritesThem) {
  EXPECT_EQ(dpgpu::ncu_unit("percent"), "%");
  EXPECT_EQ(dpgpu::ncu_unit("instruction/gpc_cycle"), "inst/cycle");
  EXPECT_EQ(dpgpu::ncu_unit("byte/second"), "byte/second");
  EXPECT_EQ(dpgpu::ncu_unit(""), "");
}

TEST(ProfilerCupti, PermissionMessageNamesTheDriverOption) {
  const std::string m =
      dpgpu::counter_permission_help("CUPTI: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
  EXPECT_TRUE(contains(m, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")) << m;
  EXPECT_TRUE(contains(m, "NVreg_RestrictProfilingToAdminUsers=0")) << m;
  EXPECT_TRUE(contains(m, "root")) << m;
}

TEST(ProfilerCupti, RequestTravelsToTheWorker) {
  dpgpu::CaseSpec spec;
  spec.id = "x";
  spec.profile = dpgpu::ProfileRequest{{"ipc"}, {"sm__inst_executed.avg.per_cycle_active"}, 7};
  auto back = dpgpu::case_spec_from_json(dpgpu::to_json(spec));
  ASSERT_TRUE(back.profile);
  EXPECT_EQ(back.profile->names, std::vector<std::string>{"ipc"});
  EXPECT_EQ(back.profile->metrics,
            std::vector<std::string>{"sm__inst_executed.avg.per_cycle_active"});
  EXPECT_EQ(back.profile->max_launches, 7);
  spec.profile.reset();
  EXPECT_FALSE(dpgpu::case_spec_from_json(dpgpu::to_json(spec)).profile)
      << "no request: the plan's own spec";
}

TEST(ProfilerCupti, RecordComesBackFromTheWorker) {
  dpgpu::CaseResult r;
  dpgpu::ProfileRecord p;
  p.ok = true;
  p.backend = "cupti";
  p.sampling = "every 3th of 10";
  p.wall_s = 0.25;
  p.launches_total = 10;
  p.stats.push_back(
      {"k", "ipc", "sm__inst_executed.avg.per_cycle_active", "inst/cycle", 0.5, 0.75, 1.0, 4});
  r.profile = p;
  auto back = dpgpu::case_result_from_json(dpgpu::to_json(r));
  ASSERT_TRUE(back.profile);
  EXPECT_EQ(back.profile->backend, "cupti");
  EXPECT_FALSE(back.profile->unavailable);
  ASSERT_EQ(back.profile->stats.size(), 1u);
  EXPECT_EQ(back.profile->stats[0].count, 4);
  EXPECT_DOUBLE_EQ(back.profile->stats[0].mean, 0.75);
  EXPECT_FALSE(dpgpu::case_result_from_json(dpgpu::to_json(dpgpu::CaseResult{})).profile);
}

TEST(ProfilerCupti, HostLibraryPreloadsOnItsOwnThread) {
  dpgpu::cupti_preload_start();
  dpgpu::cupti_preload_start();  // once is enough: a second start changes nothing
  EXPECT_GE(dpgpu::cupti_preload_wait(), 0.0);
  EXPECT_EQ(dpgpu::cupti_preload_wait(), 0.0) << "joined: nothing left to wait for";
  if (dpgpu::cupti_built()) {
    // Loaded: the host side now answers at once.
    EXPECT_EQ(dpgpu::cupti_unknown_metrics({"sm__inst_executed.avg.per_cycle_active"}),
              std::vector<std::string>{});
  }
}
