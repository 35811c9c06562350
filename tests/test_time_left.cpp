// time_left.hpp: the time-left estimate prices each case by its work, per solver point, not
// by count; overhead is separated from per-work time once two sizes were seen; the
// timeout caps it; skipped cases cost nothing.
#include <gtest/gtest.h>

#include "run/time_left.hpp"

using dpgpu::CaseSpec;
using dpgpu::TimeLeft;

namespace {

CaseSpec spec(const std::string& instance, const std::string& solver, double work,
              double timeout_s = 300) {
  CaseSpec c;
  c.problem = "p";
  c.instance_key = instance;
  c.id = instance + "/" + solver;
  c.solver = solver.substr(0, solver.find('['));
  c.work = work;
  c.measure.timeout_s = timeout_s;
  return c;
}

std::vector<const CaseSpec*> pointers(const std::vector<CaseSpec>& cases) {
  std::vector<const CaseSpec*> out;
  for (auto& c : cases) out.push_back(&c);
  return out;
}

}  // namespace

// A sweep with a cheap half (work 1000) and an expensive half (work 10^6): after the cheap
// half took 10 ms a case, the expensive half is 10 s a case, not the 10 ms a count says.
TEST(TimeLeft, ExpensiveHalfIsPricedByWorkNotByCount) {
  std::vector<CaseSpec> cases{spec("a", "s", 1e3), spec("b", "s", 1e3), spec("c", "s", 1e6),
                              spec("d", "s", 1e6)};
  TimeLeft left(pointers(cases));
  EXPECT_EQ(left.seconds(), 0);  // nothing measured yet
  left.finished(cases[0], 0.01);
  left.finished(cases[1], 0.01);
  const double naive = 0.02 / 2 * 2;  // elapsed / done × remaining
  EXPECT_NEAR(left.seconds(), 20.0, 1e-9);
  EXPECT_GT(left.seconds(), 100 * naive);
  left.finished(cases[2], 10.0);
  EXPECT_NEAR(left.seconds(), 10.0, 1e-6);
  left.finished(cases[3], 10.0);
  EXPECT_EQ(left.seconds(), 0);
}

// Two sizes seen: a fixed per-case overhead (1 s, a worker child say) and 10 µs per unit,
// so a 10^6 case is 11 s, not the 1010 s that time in proportion to work would say.
TEST(TimeLeft, OverheadIsSeparatedFromTimePerWork) {
  std::vector<CaseSpec> cases{spec("a", "g", 1000), spec("b", "g", 2000), spec("c", "g", 1e6)};
  TimeLeft left(pointers(cases));
  left.finished(cases[0], 1.01);
  // One size seen: in proportion to work, 1.01 ms a unit: 1012 s, capped at 2 × (300 + 5) s.
  EXPECT_NEAR(left.seconds(), 610.0, 1e-9);
  left.finished(cases[1], 1.02);
  EXPECT_NEAR(left.seconds(), 1.0 + 1e-5 * 1e6, 1e-6);
}

// A solver point with nothing finished borrows its solver's other points, then every case;
// planned skips cost nothing; a solver point's cases never cost more than their timeouts.
TEST(TimeLeft, FallbacksSkipsAndTheTimeoutCap) {
  std::vector<CaseSpec> cases{spec("a", "s[t=1]", 100, 10), spec("a", "s[t=2]", 100, 10),
                              spec("a", "u", 100, 10),      spec("b", "s[t=1]", 100, 10),
                              spec("b", "s[t=2]", 1e9, 10), spec("b", "u", 100, 10)};
  cases[5].decision = dpgpu::Decision::Skip;
  TimeLeft left(pointers(cases));
  left.finished(cases[0], 1.0);  // s[t=1]: 0.01 s per unit
  // s[t=1] at b: 1 s. s[t=2] borrows s: 1 s + 10^7 s, capped at 2 × (10 + 5) s. u borrows all: 1 s.
  EXPECT_NEAR(left.seconds(), 1.0 + 30.0 + 1.0, 1e-9);
  left.finished(cases[2], 3.0);  // u has its own fit now; its other case is a skip
  EXPECT_NEAR(left.seconds(), 1.0 + 30.0, 1e-9);
  left.finished(cases[1], 1.0);
  EXPECT_NEAR(left.seconds(), 1.0 + 15.0, 1e-9);
}

// With lanes (--gpus), GPU and CPU cases run at once, each pool over its lanes: the time
// left is the longer pool's share.
TEST(TimeLeft, LanesDivideEachPool) {
  std::vector<CaseSpec> cases{spec("a", "gpu.g", 100), spec("a", "cpu.c", 100)};
  for (auto name : {"b", "c", "d", "e"}) {
    cases.push_back(spec(name, "gpu.g", 100));
    cases.push_back(spec(name, "cpu.c", 100));
  }
  for (auto& c : cases)
    if (c.solver == "gpu.g") c.backend = dpgpu::Backend::Gpu;
  TimeLeft left(pointers(cases));
  left.finished(cases[0], 2.0);                  // gpu.g: 2 s a case, 4 to go
  left.finished(cases[1], 1.0);                  // cpu.c: 1 s a case, 4 to go
  EXPECT_NEAR(left.seconds(), 8.0 + 4.0, 1e-9);  // one case at a time
  left.set_lanes(2, 1);
  EXPECT_NEAR(left.seconds(), 4.0, 1e-9);  // GPU: 8 s over 2 lanes; CPU: 4 s on 1
  left.set_lanes(4, 1);
  EXPECT_NEAR(left.seconds(), 4.0, 1e-9);  // now the CPU lane is the longer
}
