#include <gtest/gtest.h>

#include "measure/summary.hpp"

using dpgpu::CsvRow;

static CsvRow rep(const std::string& id, const std::string& status, const std::string& t, const std::string& valid = "true") {
  return {{"case_id", id}, {"status", status}, {"time_s", t}, {"valid", valid}, {"work", "100"},
          {"phase.compute_s", t}, {"s.block", "128"}};
}

TEST(Summary, StatisticsOverRepetitions) {
  auto s = dpgpu::summarize({rep("a", "ok", "1"), rep("a", "ok", "3"), rep("a", "ok", "2"), rep("a", "ok", "10")});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0]["reps"], "4");
  EXPECT_EQ(s[0]["time_median_s"], "2.5");
  EXPECT_EQ(s[0]["time_min_s"], "1");
  EXPECT_EQ(s[0]["time_max_s"], "10");
  EXPECT_EQ(s[0]["time_mean_s"], "4");
  EXPECT_EQ(s[0]["throughput"], "40");
  EXPECT_EQ(s[0]["phase.compute_s"], "2.5");
  EXPECT_EQ(s[0]["s.block"], "128");
  // sample standard deviation of {1,3,2,10} is 4.0825 → relative 1.0206
  EXPECT_NEAR(std::stod(s[0]["time_rsd"]), 1.0206, 1e-3);
  EXPECT_EQ(s[0]["status"], "ok");
  EXPECT_EQ(s[0]["valid"], "true");
}

TEST(Summary, WorstStatusAndValidityWin) {
  auto s = dpgpu::summarize({rep("a", "ok", "1"), rep("a", "invalid", "1", "false"), rep("b", "ok", "1", ""),
                             rep("c", "skipped", "")});
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0]["status"], "invalid");
  EXPECT_EQ(s[0]["valid"], "false");
  EXPECT_EQ(s[1]["valid"], "");
  EXPECT_EQ(s[2]["status"], "skipped");
  EXPECT_EQ(s[2]["reps"], "0");
}

// n/a: the answer was not checked (a length-only solver, no known optimum); a case whose
// repetitions ran says so, one that never ran leaves the cell empty.
TEST(Summary, ValidIsNotApplicableWhenNothingCheckedTheAnswer) {
  CsvRow unchecked = rep("d", "ok", "1", "n/a");
  unchecked["known_optimum"] = "";
  CsvRow known = rep("e", "ok", "1");
  known["known_optimum"] = "150";
  CsvRow stopped = rep("f", "timeout", "");
  stopped["valid"] = "";
  auto s = dpgpu::summarize({unchecked, unchecked, known, rep("f", "ok", "1"), stopped, rep("g", "error", "", "")});
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0]["valid"], "n/a");
  EXPECT_EQ(s[1]["valid"], "true");
  EXPECT_EQ(s[1]["known_optimum"], "150");
  EXPECT_EQ(s[2]["status"], "timeout");
  EXPECT_EQ(s[2]["valid"], "true");  // the repetition that ran was checked
  EXPECT_EQ(s[3]["valid"], "");
}
