// End to end: the commands that read results (plot, report, compare), `list NAME` and
// `run --set`, through the real dpgpu binary on a small real run.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

using e2e::run;
using e2e::slurp;

namespace {
const std::string kBin = DPGPU_BIN;

const char* kExperiment = R"(name: e2e-read
description: LCS, two CPU solvers, for the read commands
problem: lcs
instances:
  - generator: random
    params: {n: [256, 512], alphabet: 4}
solvers:
  - cpu.linear
  - cpu.bitparallel
repetitions: 3
)";
}  // namespace

TEST(ReadCommands, ListOneProblemOrSolver) {
  auto r = run(kBin + " list cpu.bitparallel");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("lcs/cpu.bitparallel"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("cpu.linear"), std::string::npos) << r.output;
  r = run(kBin + " list lcs");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("generators:"), std::string::npos) << r.output;
  r = run(kBin + " list cpu.nope");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("no problem or solver named 'cpu.nope'"), std::string::npos) << r.output;
}

// The README's solver table: one row per registered solver, sorted, with no availability
// (it must not depend on the build that regenerates it); a name with it is refused.
TEST(ReadCommands, ListMarkdownIsTheSolverTable) {
  auto r = run(kBin + " list --markdown");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("| problem | solver | what | parameters |\n|---|---|---|---|\n", 0), 0u)
      << r.output;
  EXPECT_NE(r.output.find("| lcs | `cpu.bitparallel` |"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| lcs | `gpu.wavefront` |"), std::string::npos) << r.output;
  EXPECT_LT(r.output.find("| knapsack |"), r.output.find("| lcs |")) << r.output;
  EXPECT_EQ(r.output.find("unavailable"), std::string::npos) << r.output;
  r = run(kBin + " list lcs --markdown");
  EXPECT_EQ(r.code, 2) << r.output;
}

TEST(ReadCommands, SetOverrideReportAndCompare) {
  // report, compare and plot run Python with Matplotlib (tests run from the source root).
  if (run("bash plots/find_python.sh").code != 0) GTEST_SKIP() << "no Python with Matplotlib";
  e2e::TempDir d;
  auto yaml = d.write("read.yaml", kExperiment);
  auto base = d.path / "base", next = d.path / "new";
  auto r = run(kBin + " run " + yaml.string() + " --out " + base.string() +
               " --set 'instances.random.params.n=[128,256]' --set solvers.cpu.linear.max.n=128");
  ASSERT_EQ(r.code, 0) << r.output;
  auto copy = slurp(base / "experiment.yaml");
  EXPECT_NE(copy.find("--set instances.random.params.n=[128,256]"), std::string::npos) << copy;
  auto summary = slurp(base / "summary.csv");
  EXPECT_NE(summary.find("n=128"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("n=512"), std::string::npos) << summary;
  EXPECT_NE(slurp(base / "context.json").find("\"--set\""), std::string::npos);
  // Length-only solvers on random instances: where both ran (n = 128) their agreement is the
  // check (agreed); where one ran (n = 256), nothing checks it (n/a). Plot, report and
  // compare below read those rows like any ok row.
  for (auto& row : e2e::read_csv(base / "summary.csv"))
    if (row.at("status") == "ok")
      EXPECT_EQ(row.at("valid"), row.at("i.n") == "128" ? "agreed" : "n/a") << row.at("case_id");
  for (auto& entry : e2e::fs::directory_iterator(d.path))  // the changed copy is gone
    EXPECT_EQ(entry.path().filename().string().find(".set-"), std::string::npos) << entry.path();
  r = run(kBin + " run " + yaml.string() + " --out " + next.string() +
          " --set 'instances.random.params.n=[128,256]' --set solvers.cpu.linear.max.n=128");
  ASSERT_EQ(r.code, 0) << r.output;

  r = run(kBin + " compare " + base.string() + " " + next.string() +
          " --threshold 1000% --no-figure");
  EXPECT_EQ(r.code, 0) << r.output;  // nothing can be 10x slower on a rerun
  EXPECT_NE(r.output.find("same"), std::string::npos) << r.output;
  EXPECT_TRUE(e2e::fs::exists(next / "compare" / "compare.csv"));
  r = run(kBin + " compare " + base.string() + " " + (d.path / "missing").string());
  EXPECT_EQ(r.code, 2) << r.output;

  r = run(kBin + " report " + next.string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto md = slurp(next / "report.md");
  EXPECT_NE(md.find("## Cases"), std::string::npos) << md;
  EXPECT_NE(md.find("random[alphabet=4,n=128]#1/cpu.bitparallel"), std::string::npos) << md;
  EXPECT_NE(md.find("skipped"), std::string::npos) << md;  // cpu.linear at n=256
  EXPECT_NE(md.find("| ok | n/a |"), std::string::npos) << md;
  EXPECT_TRUE(e2e::fs::exists(next / "report.html"));

  r = run(kBin + " plot --list");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("speedup"), std::string::npos) << r.output;
  r = run(kBin + " plot " + next.string() + " --x n --format png");
  EXPECT_EQ(r.code, 0) << r.output;
}
