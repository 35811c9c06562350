// End-to-end runs of the toy problem: every runner path, through the real binary.
#include <gtest/gtest.h>

#include <regex>

#include "e2e_support.hpp"

using e2e::read_csv;
using e2e::run;

namespace {

const std::string kToy = DPGPU_TOY_BIN;

std::string experiment(const std::string& solvers, const std::string& extra = "") {
  return "name: toyrun\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [5, 7]}\n"
         "solvers:\n" +
         solvers + "repetitions: 2\nwarmup: 0\ntimeout_s: 3\n" + extra;
}

std::map<std::string, std::string> status_by_solver(const std::vector<dpgpu::CsvRow>& summary) {
  std::map<std::string, std::string> out;
  for (auto& r : summary) out[r.at("solver")] = r.at("status");
  return out;
}

}  // namespace

TEST(ToyRun, GoodSolversProduceAllOutputs) {
  e2e::TempDir d;
  auto yaml = d.write(
      "ok.yaml",
      experiment("  - name: cpu.right\n    params: {sleep_ms: [0, 1]}\n  - name: cpu.bare\n"));
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto runs = read_csv(d.path / "out/runs.csv");
  auto summary = read_csv(d.path / "out/summary.csv");
  EXPECT_EQ(runs.size(), 2u * 3u * 2u);  // instances × solver points × repetitions
  ASSERT_EQ(summary.size(), 6u);
  for (auto& row : runs) {
    EXPECT_EQ(row.at("status"), "ok");
    EXPECT_EQ(row.at("objective"), row.at("i.n"));
    EXPECT_EQ(row.at("backend"), "cpu");
    EXPECT_TRUE(row.count("time_s"));
    EXPECT_EQ(row.at("known_optimum"), row.at("i.n"));  // the generator knows it
    if (row.at("solver") == "cpu.right") {
      EXPECT_EQ(row.at("valid"), "true");  // certificate and known optimum
      EXPECT_EQ(row.at("c.answers"), "1");
      EXPECT_TRUE(row.count("phase.compute_s"));
    } else {
      EXPECT_EQ(row.at("valid"), "true");  // known optimum alone
    }
  }
  for (auto f : {"benchmark.json", "context.json", "experiment.yaml"})
    EXPECT_TRUE(std::filesystem::exists(d.path / "out" / f)) << f;
  auto bench = e2e::slurp(d.path / "out/benchmark.json");
  EXPECT_NE(bench.find("\"benchmarks\""), std::string::npos);
  EXPECT_NE(bench.find("manual_time"), std::string::npos) << "Google Benchmark's manual-time runs";
  EXPECT_NE(e2e::slurp(d.path / "out/context.json").find("git_commit"), std::string::npos);
}

// A solver that returns no certificate, on an instance without a known optimum: only the
// other solver of the instance checked its answer, and runs.csv and summary.csv say agreed.
TEST(ToyRun, AnUncheckedAnswerIsValidNotApplicable) {
  e2e::TempDir d;
  auto yaml = d.write(
      "na.yaml",
      "name: na\nproblem: toy_doubled\ninstances:\n  - generator: half\n    params: {n: 4}\n"
      "solvers:\n  - cpu.double_length\n  - cpu.double\nrepetitions: 2\nwarmup: 0\n");
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  for (auto file : {"runs.csv", "summary.csv"})
    for (auto& row : read_csv(d.path / "out" / file)) {
      EXPECT_EQ(row.at("status"), "ok") << file;
      EXPECT_EQ(row.count("known_optimum"), 0u) << file;  // empty: none known
      EXPECT_EQ(row.at("valid"), row.at("solver") == "cpu.double" ? "true" : "agreed")
          << file << " " << row.at("solver");
    }
}

TEST(ToyRun, WrongAnswerIsInvalidAndExitIsNonZero) {
  e2e::TempDir d;
  auto yaml = d.write("w.yaml", experiment("  - name: cpu.right\n  - name: cpu.wrong\n"));
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  EXPECT_EQ(r.code, 1) << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  for (auto& row : s) {
    if (row.at("solver") == "cpu.wrong") {
      EXPECT_EQ(row.at("status"), "invalid");
      EXPECT_NE(row.at("message").find("known optimum"), std::string::npos) << row.at("message");
    }
    // the agreement check marks every solver of a disagreeing instance
    EXPECT_NE(row.at("message").find("disagree"), std::string::npos) << row.at("message");
  }
}

TEST(ToyRun, CrashHangAndOomCostOneRowEach) {
  e2e::TempDir d;
  auto yaml = d.write(
      "bad.yaml", experiment("  - name: cpu.crash\n  - name: cpu.hang\n  - name: cpu.polite_hang\n"
                             "  - name: cpu.oom\n  - name: cpu.greedy\n  - name: gpu.none\n"
                             "  - name: cpu.right\n",
                             "isolate: always\n"));
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string() +
               " --filter 'n=5'");
  EXPECT_EQ(r.code, 1) << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  ASSERT_EQ(s.size(), 7u) << "the filter keeps the n=5 instance only";
  auto st = status_by_solver(s);
  EXPECT_EQ(st["cpu.crash"], "error");
  EXPECT_EQ(st["cpu.hang"], "timeout");
  EXPECT_EQ(st["cpu.polite_hang"], "timeout");
  EXPECT_EQ(st["cpu.oom"], "oom");
  EXPECT_EQ(st["cpu.greedy"], "oom");
  EXPECT_EQ(st["gpu.none"], "skipped");
  EXPECT_EQ(st["cpu.right"], "ok") << "the sweep goes on after failures";
  for (auto& row : s) {
    if (row.at("solver") == "cpu.crash")
      EXPECT_NE(row.at("message").find("signal 6"), std::string::npos);
    if (row.at("solver") == "cpu.greedy")
      EXPECT_NE(row.at("message").find("needs 1 EiB"), std::string::npos);
    if (row.at("solver") == "gpu.none")
      EXPECT_NE(row.at("message").find("without an implementation"), std::string::npos);
  }
}

TEST(ToyRun, ResumeSkipsFinishedCases) {
  e2e::TempDir d;
  auto yaml = d.write("r.yaml", experiment("  - name: cpu.right\n  - name: cpu.bare\n"));
  auto out = (d.path / "out").string();
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out + " --filter cpu.right").code, 0);
  EXPECT_EQ(read_csv(d.path / "out/summary.csv").size(), 2u);
  auto r = run(kToy + " run " + yaml.string() + " --out " + out + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_csv(d.path / "out/summary.csv").size(), 4u);
  EXPECT_EQ(read_csv(d.path / "out/runs.csv").size(), 8u) << "finished cases were not run again";
}

// The time left is priced by work (time_left.hpp): after a 2 ms case, the two 1000 ms
// cases to come are at least 2 s, where a count of cases (elapsed / done × remaining) says
// a few milliseconds.
TEST(ToyRun, TimeLeftWeighsTheExpensiveCasesToCome) {
  e2e::TempDir d;
  auto yaml = d.write("t.yaml",
                      "name: eta\nproblem: toy\ninstances:\n  - generator: count\n"
                      "    params: {n: [2, 1000]}\n    seeds: [1, 2]\nsolvers:\n  - cpu.sleep_n\n"
                      "repetitions: 1\nwarmup: 0\nisolate: never\n");
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(\[1/4\] [^\n]*~(\d+)s left)")))
      << r.output;
  EXPECT_GE(std::stoi(m[1]), 2) << r.output;
  EXPECT_NE(r.output.find("~0s left\n"
                          "eta: 4 of 4"),
            std::string::npos)
      << r.output;
}

TEST(ToyRun, DryRunWritesNothing) {
  e2e::TempDir d;
  auto yaml = d.write("d.yaml", experiment("  - name: cpu.right\n  - name: gpu.none\n"));
  auto r = run(kToy + " run " + yaml.string() + " --dry-run --out " + (d.path / "out").string());
  EXPECT_EQ(r.code, 0) << r.output;
  // The case table (case_table.hpp): the instance, then its cases (id = instance/solver).
  EXPECT_NE(r.output.find("count[n=5]#1  n=5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("     1  cpu.right"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("skipped"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(d.path / "out"));
}

// A folder under a regular file cannot be made by anyone, root included (who writes anywhere
// else), so the test holds for every user.
TEST(ToyRun, UnwritableOutputFolderIsAClearError) {
  e2e::TempDir d;
  auto yaml = d.write("u.yaml", experiment("  - name: cpu.right\n"));
  auto blocker = d.write("file", "not a folder");
  auto r = run(kToy + " run " + yaml.string() + " --out " + (blocker / "out").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("output folder"), std::string::npos) << r.output;
}

TEST(ToyRun, MalformedYamlNamesFileLineAndColumn) {
  e2e::TempDir d;
  auto yaml = d.write("m.yaml", "name: x\nproblem: toy\ninstances: [\n  {generator: count\n");
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("m.yaml:"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(d.path / "out/runs.csv"));
}

TEST(ToyRun, HarnessOverheadOnA10msCaseIsSmall) {
  e2e::TempDir d;
  auto yaml =
      d.write("o.yaml",
              "name: overhead\nproblem: toy\ninstances:\n  - generator: count\nsolvers:\n"
              "  - name: cpu.right\n    params: {sleep_ms: 10}\nrepetitions: 20\nwarmup: 1\n");
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  ASSERT_EQ(s.size(), 1u);
  double overhead = std::stod(s[0].at("harness_overhead"));
  std::cout << "harness overhead on a 10 ms case: " << overhead * 100 << "%\n";
  EXPECT_LT(overhead, 0.05);
}

// max_noise 0.3, a 200 ms steady solver and one alternating 2 ms and 40 ms (a relative spread
// near 1): a loaded host's scheduling delays (up to tens of ms under ctest -j on 2 cores, where
// a 20 ms steady solver and max_noise 0.5 once failed here) cannot turn one into the other.
TEST(ToyRun, StoppingRuleAddsRepetitionsOnlyWhileNoisy) {
  e2e::TempDir d;
  auto yaml = d.write("s.yaml",
                      "name: stop\nproblem: toy\ninstances:\n  - generator: count\nsolvers:\n"
                      "  - name: cpu.right\n    params: {sleep_ms: 200}\n  - name: cpu.noisy\n"
                      "repetitions: 3\nmax_repetitions: 7\nmax_noise: 0.3\nwarmup: 1\n");
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  ASSERT_EQ(s.size(), 2u);
  for (auto& row : s) {
    if (row.at("solver") == "cpu.right")
      EXPECT_EQ(row.at("reps"), "3") << "steady: the minimum count";
    if (row.at("solver") == "cpu.noisy")
      EXPECT_EQ(row.at("reps"), "7") << "noisy: up to max_repetitions";
  }
}

// series: true adds one untimed run per case whose points land in series.csv; timed runs
// never record (the solver's counter says whether its Context wanted a series).
TEST(ToyRun, SeriesComeFromOneExtraUntimedRun) {
  for (std::string isolate : {"never", "always"}) {
    e2e::TempDir d;
    auto yaml = d.write("s.yaml", experiment("  - name: cpu.steps\n  - name: cpu.right\n",
                                             "series: true\nisolate: " + isolate + "\n"));
    auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
    ASSERT_EQ(r.code, 0) << r.output;
    auto runs = read_csv(d.path / "out/runs.csv");
    for (auto& row : runs)
      if (row.at("solver") == "cpu.steps") EXPECT_EQ(row.at("c.series_wanted"), "0") << isolate;
    auto series = read_csv(d.path / "out/series.csv");
    ASSERT_EQ(series.size(), 5u + 7u) << isolate;  // n = 5 and n = 7, cpu.right records none
    std::map<std::string, int> per_case;
    for (auto& row : series) {
      EXPECT_EQ(row.at("solver"), "cpu.steps");
      EXPECT_EQ(row.at("series"), "step_square");
      const double i = std::stod(row.at("index"));
      EXPECT_EQ(std::stod(row.at("value")), i * i);
      per_case[row.at("case_id")]++;
    }
    EXPECT_EQ(per_case.size(), 2u);
    EXPECT_NE(r.output.find("the solver records no series"), std::string::npos)
        << "cpu.right's series run says so";
  }
  e2e::TempDir d;  // without series: no file
  auto yaml = d.write("n.yaml", experiment("  - name: cpu.steps\n"));
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string()).code, 0);
  EXPECT_FALSE(std::filesystem::exists(d.path / "out/series.csv"));
}

// parts: two problems in one file write one set of outputs; each case runs its own problem,
// in this process and in a child (which must find its part again).
TEST(ToyRun, PartsOfTwoProblemsShareOneResultsFolder) {
  for (std::string isolate : {"never", "always"}) {
    e2e::TempDir d;
    auto yaml = d.write("p.yaml",
                        "name: twoparts\nparts:\n"
                        "  - problem: toy\n    instances: [{generator: count, params: {n: [3, "
                        "4]}}]\n    solvers: [cpu.right]\n"
                        "  - problem: toy_doubled\n    instances: [{generator: half, params: {n: "
                        "5}}]\n    solvers: [cpu.double]\n"
                        "repetitions: 2\nwarmup: 0\ntimeout_s: 3\nisolate: " +
                            isolate + "\n");
    auto check = run(kToy + " check " + yaml.string());
    ASSERT_EQ(check.code, 0) << check.output;
    EXPECT_NE(check.output.find("part 1 (toy_doubled)"), std::string::npos) << check.output;
    auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
    ASSERT_EQ(r.code, 0) << r.output;
    auto summary = read_csv(d.path / "out/summary.csv");
    ASSERT_EQ(summary.size(), 3u) << isolate;
    std::map<std::string, std::string> objective_by_problem;
    for (auto& row : summary) {
      EXPECT_EQ(row.at("status"), "ok") << row.at("case_id");
      objective_by_problem[row.at("problem") + "/" + row.at("i.n")] = row.at("objective");
    }
    EXPECT_EQ(objective_by_problem["toy/3"], "3");
    EXPECT_EQ(objective_by_problem["toy/4"], "4");
    EXPECT_EQ(objective_by_problem["toy_doubled/5"], "10");
    EXPECT_EQ(read_csv(d.path / "out/runs.csv").size(), 6u);
  }
}
