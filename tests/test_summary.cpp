// summary.csv's rows and the statistics behind them (case_stats.hpp), from typed records.
#include <gtest/gtest.h>

#include "measure/case_stats.hpp"
#include "report/reporter.hpp"

using dpgpu::CaseRecord;
using dpgpu::RepRecord;
using dpgpu::Status;

namespace {

RepRecord rep(Status status, double t, std::optional<bool> valid = true) {
  RepRecord r;
  r.status = status;
  r.time_s = t;
  r.valid = valid;
  r.objective = 7;
  r.phases["compute"] = t;
  return r;
}

// A case of instance `instance` (solvers of one instance are compared with each other).
CaseRecord record(const std::string& instance, const std::string& solver,
                  std::vector<RepRecord> reps, Status status = Status::Ok) {
  CaseRecord c;
  c.spec.id = instance + "/" + solver;
  c.spec.problem = "toy";
  c.spec.instance_key = instance;
  c.spec.solver = solver;
  c.spec.work = 100;
  c.spec.solver_params["block"] = dpgpu::Value(std::int64_t{128});
  for (std::size_t i = 0; i < reps.size(); ++i) reps[i].rep = int(i);
  c.result.reps = std::move(reps);
  c.result.status = status;
  return c;
}

std::vector<dpgpu::CsvRow> summary(const std::vector<CaseRecord>& cases) {
  dpgpu::Records records;
  for (auto& c : cases) records.push_back(&c);
  return dpgpu::summary_rows(records);
}

}  // namespace

TEST(CaseStats, OverTheCountedRepetitions) {
  auto s = dpgpu::case_stats({rep(Status::Ok, 1), rep(Status::Invalid, 3), rep(Status::Ok, 2),
                              rep(Status::Ok, 10), rep(Status::Timeout, 50)});
  EXPECT_EQ(s.n, 4);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.mean, 4);
  EXPECT_NEAR(s.sd, 4.0825, 1e-4);  // sample standard deviation of {1,3,2,10}
  EXPECT_NEAR(s.rsd, 1.0206, 1e-4);
  EXPECT_TRUE(s.noise.measured);
  EXPECT_TRUE(s.noise.noisy);
  EXPECT_DOUBLE_EQ(s.noise.spread, 9 / 2.5);
  EXPECT_FALSE(dpgpu::case_stats({rep(Status::Ok, 1), rep(Status::Ok, 3)}, 2.0)
                   .noise.noisy);  // its own threshold

  auto ms = dpgpu::case_stats({rep(Status::Ok, 0.001), rep(Status::Ok, 0.003)}, 0, 1e3);
  EXPECT_DOUBLE_EQ(ms.median, 2);
  auto none = dpgpu::case_stats({rep(Status::Error, 1)});
  EXPECT_EQ(none.n, 0);
  EXPECT_FALSE(none.noise.measured);
  auto one = dpgpu::case_stats({rep(Status::Ok, 1)});
  EXPECT_EQ(one.sd, 0);
  EXPECT_FALSE(one.noise.measured);
}

TEST(Summary, StatisticsOverRepetitions) {
  auto s = summary(
      {record("a", "cpu.x",
              {rep(Status::Ok, 1), rep(Status::Ok, 3), rep(Status::Ok, 2), rep(Status::Ok, 10)})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0]["reps"], "4");
  EXPECT_EQ(s[0]["time_median_s"], "2.5");
  EXPECT_EQ(s[0]["time_min_s"], "1");
  EXPECT_EQ(s[0]["time_max_s"], "10");
  EXPECT_EQ(s[0]["time_mean_s"], "4");
  EXPECT_EQ(s[0]["time_rsd"], "1.02062");
  EXPECT_EQ(s[0]["time_noise"], "noisy");  // CaseStats' verdict, as the progress line says
  EXPECT_EQ(s[0]["throughput"], "40");
  EXPECT_EQ(s[0]["phase.compute_s"], "2.5");
  EXPECT_EQ(s[0]["s.block"], "128");
  EXPECT_EQ(s[0]["status"], "ok");
  EXPECT_EQ(s[0]["valid"], "true");
}

// summary.csv's time_noise is the case's own verdict: its max_noise, n/a below two repetitions.
TEST(Summary, NoiseVerdictUsesTheCasesThreshold) {
  auto loose = record("a", "cpu.x", {rep(Status::Ok, 1), rep(Status::Ok, 3)});
  loose.spec.measure.max_noise = 2.0;
  auto once = record("b", "cpu.x", {rep(Status::Ok, 1)});
  auto s = summary({loose, once});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0]["time_noise"], "steady");
  EXPECT_EQ(s[1]["time_noise"], "n/a");
}

// A work counter (a search's nodes) may differ run to run: the summary takes its median.
TEST(Summary, WorkCounterMedian) {
  auto c = record("a", "cpu.x", {rep(Status::Ok, 1), rep(Status::Ok, 1), rep(Status::Ok, 1)});
  c.spec.work_counter = "nodes";
  for (double n : {10.0, 30.0, 20.0}) c.result.reps[std::size_t(n / 10 - 1)].counters["nodes"] = n;
  auto s = summary({c});
  EXPECT_EQ(s[0]["work"], "20");
  EXPECT_EQ(s[0]["throughput"], "20");
  EXPECT_EQ(s[0]["c.nodes"], "20");
}

TEST(Summary, WorstStatusAndValidityWin) {
  auto s = summary({record("a", "cpu.x", {rep(Status::Ok, 1), rep(Status::Invalid, 1, false)}),
                    record("c", "cpu.x", {}, Status::Skipped)});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0]["status"], "invalid");
  EXPECT_EQ(s[0]["valid"], "false");
  EXPECT_EQ(s[1]["status"], "skipped");
  EXPECT_EQ(s[1]["reps"], "0");
  EXPECT_EQ(s[1]["valid"], "");  // no repetition ran
}

// n/a: the answer was not checked (no certificate, no known optimum) by anything; agreed:
// only the other solvers of the instance did.
TEST(Summary, ValidIsNotApplicableWhenNothingCheckedTheAnswer) {
  auto timed_out = record("f", "cpu.x", {rep(Status::Ok, 1)}, Status::Timeout);
  timed_out.result.message = "timed out";
  auto s = summary({record("d", "cpu.x", {rep(Status::Ok, 1, std::nullopt)}),
                    record("e", "cpu.x", {rep(Status::Ok, 1, std::nullopt)}),
                    record("e", "cpu.y", {rep(Status::Ok, 1)}), timed_out});
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0]["valid"], "n/a");
  EXPECT_EQ(s[1]["valid"], "agreed");
  EXPECT_EQ(s[2]["valid"], "true");
  EXPECT_EQ(s[3]["status"], "timeout");
  EXPECT_EQ(s[3]["valid"], "true");  // the repetition that ran was checked
  EXPECT_EQ(s[3]["message"], "timed out");
}
