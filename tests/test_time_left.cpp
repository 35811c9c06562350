// time_left.hpp: the time-left estimate prices each case by its work, per solver point, not
// by count; overhead is separated from per-work time once two sizes were seen; the
// timeout caps it; skipped cases cost nothing; the line's estimate does not jump by 20x; a
// heartbeat while a case runs long (reporter_progress.cpp).
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "report/reporter.hpp"
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

// Issue 36: a solver never seen was priced by the pool of every finished case, so the one slow
// solver seen second priced all the others (the line went from ~1 min to ~23 min against a real
// 4m20s). Now it is the geometric mean of each finished point's price: solvers 100x apart price
// an unseen one at 10x the fast one, not at the pool's 50.5x.
TEST(TimeLeft, UnseenSolverIsPricedByTheGeometricMeanOfTheSeen) {
  std::vector<CaseSpec> cases{spec("a", "fast", 1e6), spec("a", "slow", 1e6),
                              spec("a", "other", 1e6)};
  TimeLeft left(pointers(cases));
  left.finished(cases[0], 0.1);                  // 10^-7 s per unit
  EXPECT_NEAR(left.seconds(), 0.1 + 0.1, 1e-9);  // slow and other priced like fast
  left.finished(cases[1], 10.0);                 // 100x slower
  EXPECT_NEAR(left.seconds(), 1.0, 1e-9);        // sqrt(0.1 × 10), not (0.1 + 10) / 2
}

// The line's estimate moves by at most 2x per update from what the last one implied (the last
// estimate less the time since), however far the model jumps; nothing left is 0 at once.
TEST(SteadyTimeLeft, MovesAtMostTwofoldPerUpdate) {
  dpgpu::SteadyTimeLeft shown;
  EXPECT_EQ(shown.update(0, 1), 0);        // nothing measured yet
  EXPECT_EQ(shown.update(60, 10), 60);     // the first estimate as the model says
  EXPECT_EQ(shown.update(1380, 20), 100);  // the model 23x up: 2 × (60 − 10)
  EXPECT_EQ(shown.update(1380, 30), 180);  // 2 × (100 − 10)
  EXPECT_EQ(shown.update(200, 40), 200);   // within 2x of 170: as the model says
  EXPECT_EQ(shown.update(1, 50), 95);      // the model 200x down: (200 − 10) / 2
  EXPECT_EQ(shown.update(0, 60), 0);       // done
  EXPECT_EQ(shown.update(5, 400), 5);      // after a 0, a fresh start
  EXPECT_EQ(shown.update(30, 500), 2);     // overran: from at least 1 s, at most 2x
}

// The run shape: six solvers a few orders of magnitude apart on growing instances,
// one case after another, instance by instance. The shown estimate never changes by more than
// 2x between consecutive cases (after the time between them), where the model alone did.
TEST(SteadyTimeLeft, NoTwentyfoldSwingOverARun) {
  const std::vector<std::pair<std::string, double>> solvers{
      {"cpu.bitparallel", 1e-9}, {"cpu.full_table", 4e-7}, {"cpu.linear", 2e-8},
      {"cpu.hirschberg", 6e-8},  {"cpu.omp", 1e-8},        {"gpu.x", 5e-9}};
  std::vector<CaseSpec> cases;
  std::vector<double> wall;
  for (double n : {1024.0, 2048.0, 4096.0, 8192.0, 16384.0})
    for (auto& [name, rate] : solvers) {
      cases.push_back(spec("n" + std::to_string(int(n)), name, n * n));
      wall.push_back(0.05 + rate * n * n);  // a worker child's overhead, then the work
    }
  TimeLeft left(pointers(cases));
  dpgpu::SteadyTimeLeft shown;
  double elapsed = 0, last = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    elapsed += wall[i];
    left.finished(cases[i], wall[i]);
    const double now = shown.update(left.seconds(), elapsed);
    if (i > 0 && now > 0 && last - wall[i] > 1) {
      EXPECT_LE(now, 2 * (last - wall[i]) + 1e-9) << "after case " << i + 1;
      EXPECT_GE(now, (last - wall[i]) / 2 - 1e-9) << "after case " << i + 1;
    }
    last = now;
  }
  EXPECT_EQ(last, 0);
}

// Issue 36: nothing printed while a 50 s case ran. The progress reporter prints a heartbeat
// when no case has finished for the first interval, then every interval, and stops when its
// run ends.
TEST(ProgressReporter, HeartbeatWhileACaseRuns) {
  std::ostringstream out;
  {
    auto progress = dpgpu::progress_reporter(out, 0.2, 0.3);
    std::this_thread::sleep_for(std::chrono::milliseconds(900));  // beats at 0.2, 0.5, 0.8 s
  }
  const std::string text = out.str();
  std::size_t beats = 0;
  for (std::size_t at = 0;
       (at = text.find("still running: the first case for", at)) != std::string::npos; ++at)
    ++beats;
  EXPECT_GE(beats, 2u) << text;  // a loaded machine may wake the thread late
  EXPECT_LE(beats, 3u) << text;
  const std::string after = out.str();
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_EQ(out.str(), after);  // the reporter is gone: no more beats
}
