// A results folder is a durable record: kill -9 at any moment, concurrent runs, filters,
// resumes of the wrong experiment, signals, limits. Through the real dpgpu_toy binary.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "e2e_support.hpp"
#include "scaleout_support.hpp"

using e2e::read_csv;
using e2e::run;
using e2e::snapshot;
using e2e::toy_sweep;
using scaleout::lines_in;

namespace {

namespace fs = std::filesystem;
const std::string kToy = DPGPU_TOY_BIN;

pid_t start(const std::vector<std::string>& args, const fs::path& log) {
  return scaleout::start(kToy, args, log);
}
using scaleout::wait_exit;
using scaleout::wait_for;

// Each (case, repetition) exactly once in runs.csv, summary's reps equal to runs.csv's, and
// benchmark.json's iterations equal to both.
void expect_consistent(const fs::path& out, std::size_t cases, int reps) {
  auto runs = read_csv(out / "runs.csv");
  auto summary = read_csv(out / "summary.csv");
  std::map<std::string, std::set<std::string>> reps_of;
  std::map<std::string, int> rows_of;
  for (auto& r : runs) {
    EXPECT_EQ(r.at("status"), "ok") << r.at("case_id");
    EXPECT_TRUE(reps_of[r.at("case_id")].insert(r.at("rep")).second)
        << "duplicate " << r.at("case_id") << " rep " << r.at("rep");
    rows_of[r.at("case_id")]++;
  }
  EXPECT_EQ(reps_of.size(), cases);
  EXPECT_EQ(runs.size(), cases * std::size_t(reps));
  ASSERT_EQ(summary.size(), cases);
  for (auto& s : summary)
    EXPECT_EQ(std::stoi(s.at("reps")), rows_of[s.at("case_id")]) << s.at("case_id");
  auto bench = nlohmann::json::parse(e2e::slurp(out / "benchmark.json"));
  std::size_t iterations = 0;
  std::map<std::string, double> median_ms;
  for (auto& b : bench.at("benchmarks")) {
    iterations += b.at("run_type") == "iteration";
    if (b.value("aggregate_name", "") == "median") median_ms[b.at("run_name")] = b.at("real_time");
  }
  EXPECT_EQ(iterations, runs.size());
  for (auto& s : summary) {
    const double ms = median_ms[s.at("case_id") + "/manual_time"];
    EXPECT_NEAR(ms, std::stod(s.at("time_median_s")) * 1e3, ms * 1e-5)
        << "benchmark.json agrees with summary.csv";
  }
  EXPECT_EQ(lines_in(out / "journal.jsonl"), cases) << "one journal line per case";
}

}  // namespace

TEST(ResultsFolder, KillNineAtRandomMomentsThenResumeKeepsEveryRepetitionOnce) {
  e2e::TempDir d;
  // About 2 s of solving in 64 cases of at most 90 ms; each trial lives from 0 to 300 ms past
  // the time a one-case run takes from start to finish (measured first: start-up is longer
  // where context.json asks nvidia-smi about a GPU), so kills land in start-up, in cases and
  // in commits.
  auto yaml =
      d.write("k.yaml", toy_sweep("kill", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]",
                                  "[0, 10, 30]", 3));
  const auto out = d.path / "out";
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(run(kToy + " run " + d.write("one.yaml", toy_sweep("one", "1", "0", 1)).string() +
                " --out " + (d.path / "one").string())
                .code,
            0);
  const int one_case_run_ms =
      int(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> moment_ms(0, one_case_run_ms + 300);
  int killed_mid_run = 0;
  for (int trial = 0; trial < 50; ++trial) {
    pid_t pid =
        start({"run", yaml.string(), "--out", out.string(), "--resume"}, d.path / "log.txt");
    std::this_thread::sleep_for(std::chrono::milliseconds(moment_ms(rng)));
    kill(pid, SIGKILL);
    int code = wait_exit(pid);
    killed_mid_run += code == 128 + SIGKILL;
    ASSERT_TRUE(code == 128 + SIGKILL || code == 0) << "trial " << trial << ": " << code << "\n"
                                                    << e2e::slurp(d.path / "log.txt");
  }
  EXPECT_GT(killed_mid_run, 10);
  EXPECT_GT(lines_in(out / "journal.jsonl"), 5u) << "some cases were committed between kills";
  std::cout << "one-case run " << one_case_run_ms << " ms; " << killed_mid_run
            << " of 50 trials killed by SIGKILL, " << lines_in(out / "journal.jsonl")
            << " cases committed before the final --resume\n";
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  expect_consistent(out, 16 * 4, 3);
}

TEST(ResultsFolder, SecondConcurrentRunIsRefusedAndTheFirstStaysIntact) {
  e2e::TempDir d;
  auto yaml = d.write("c.yaml", toy_sweep("conc", "[1, 2, 3]", "200", 1));
  const auto out = d.path / "out";
  pid_t first = start({"run", yaml.string(), "--out", out.string()}, d.path / "first.txt");
  ASSERT_TRUE(wait_for([&] { return fs::exists(out / ".dpgpu-run"); }, 10));
  auto second = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  EXPECT_EQ(second.code, 2) << second.output;
  EXPECT_NE(second.output.find("in use by another dpgpu run"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("pid " + std::to_string(first)), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("c.yaml"), std::string::npos)
      << "names the holder's command: " << second.output;
  ASSERT_EQ(wait_exit(first), 0) << e2e::slurp(d.path / "first.txt");
  expect_consistent(out, 6, 1);
  EXPECT_FALSE(fs::exists(out / ".dpgpu-run")) << "the holder note goes with the run";
}

TEST(ResultsFolder, FilterTypoIsExitTwoAndLeavesTheFolderUnchanged) {
  e2e::TempDir d;
  auto yaml = d.write("f.yaml", toy_sweep("filt", "[1, 2]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  const auto before = snapshot(out);
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter cpu.rihgt");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("matches none of the 4 cases"), std::string::npos) << r.output;
  EXPECT_EQ(snapshot(out), before);
  auto fresh = run(kToy + " run " + yaml.string() + " --out " + (d.path / "new").string() +
                   " --filter nope");
  EXPECT_EQ(fresh.code, 2);
  EXPECT_FALSE(fs::exists(d.path / "new")) << "nothing written";
}

TEST(ResultsFolder, FilterRerunsItsCasesAndKeepsEveryOtherRow) {
  e2e::TempDir d;
  auto yaml = d.write("f.yaml", toy_sweep("filt", "[1, 2]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  auto before = read_csv(out / "runs.csv");
  auto r =
      run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter 'n=1.*cpu.bare'");
  ASSERT_EQ(r.code, 0) << r.output;
  auto after = read_csv(out / "runs.csv");
  ASSERT_EQ(after.size(), before.size()) << "the rerun case replaced its rows";
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].at("case_id"), before[i].at("case_id"));
    if (after[i].at("case_id").find("n=1]#1/cpu.bare") == std::string::npos)
      EXPECT_EQ(after[i].at("time_s"), before[i].at("time_s")) << "other cases keep their rows";
  }
  EXPECT_EQ(read_csv(out / "summary.csv").size(), 4u);
}

TEST(ResultsFolder, ResumeOfAnotherExperimentOrOtherRepetitionsIsRefused) {
  e2e::TempDir d;
  auto a = d.write("a.yaml", toy_sweep("alpha", "[1, 2]", "0", 2));
  auto b = d.write("b.yaml", toy_sweep("beta", "[1, 2, 3]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + a.string() + " --out " + out.string()).code, 0);
  const auto before = snapshot(out);
  auto other = run(kToy + " run " + b.string() + " --out " + out.string() + " --resume");
  EXPECT_EQ(other.code, 2) << other.output;
  EXPECT_NE(other.output.find("holds experiment 'alpha', this is 'beta'"), std::string::npos)
      << other.output;
  EXPECT_NE(other.output.find("cases of this plan are new"), std::string::npos) << other.output;
  auto reps =
      run(kToy + " run " + a.string() + " --out " + out.string() + " --resume --repetitions 3");
  EXPECT_EQ(reps.code, 2) << reps.output;
  EXPECT_NE(reps.output.find("other repetitions: 2 recorded, 3 now"), std::string::npos)
      << reps.output;
  EXPECT_EQ(snapshot(out), before);
}

TEST(ResultsFolder, AFolderWithResultsNeedsResumeOrFreshAndFreshMovesThemAside) {
  e2e::TempDir d;
  auto yaml = d.write("a.yaml", toy_sweep("again", "[1]", "0", 1));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  fs::create_directories(out / "figures");
  d.write("out/figures/old.png", "drawn from the old data");
  const auto before = snapshot(out);
  auto again = run(kToy + " run " + yaml.string() + " --out " + out.string());
  EXPECT_EQ(again.code, 2) << again.output;
  EXPECT_NE(again.output.find("--resume"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("--fresh"), std::string::npos) << again.output;
  EXPECT_EQ(snapshot(out), before);
  auto fresh = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --fresh");
  ASSERT_EQ(fresh.code, 0) << fresh.output;
  std::vector<fs::path> previous;
  for (auto& e : fs::directory_iterator(out))
    if (e.path().filename().string().rfind("previous-", 0) == 0) previous.push_back(e.path());
  ASSERT_EQ(previous.size(), 1u) << fresh.output;
  EXPECT_EQ(e2e::slurp(previous[0] / "runs.csv"), before.at("runs.csv"))
      << "the old results, moved whole";
  EXPECT_TRUE(fs::exists(previous[0] / "figures/old.png"));
  expect_consistent(out, 2, 1);
  auto both = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --fresh --resume");
  EXPECT_EQ(both.code, 2) << both.output;
}

TEST(ResultsFolder, FiguresOfChangedDataAreRemoved) {
  e2e::TempDir d;
  auto yaml = d.write("a.yaml", toy_sweep("figs", "[1, 2]", "0", 1));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter n=1").code,
            0);
  std::filesystem::create_directories(out / "figures");
  d.write("out/figures/fig.png", "drawn from n=1 only");
  d.write("out/figures/.dpgpu-figures", "fig.png\n");  // dpgpu plot's list of what it drew
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(out / "figures")) << r.output;
  EXPECT_NE(r.output.find("redraw"), std::string::npos) << r.output;
}

TEST(ResultsFolder, AJournalLineCutShortIsDroppedAndItsCaseRunsAgain) {
  e2e::TempDir d;
  auto yaml = d.write("j.yaml", toy_sweep("cut", "[1, 2]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  std::string journal = e2e::slurp(out / "journal.jsonl");
  // Cut the last line in the middle, as a kill during its write would.
  auto last = journal.rfind('\n', journal.size() - 2);
  std::ofstream(out / "journal.jsonl", std::ios::trunc) << journal.substr(0, last + 1 + 40);
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("[4/4]"), std::string::npos) << "the cut case ran again: " << r.output;
  expect_consistent(out, 4, 2);
}

TEST(ResultsFolder, SigintStopsAfterTheCaseInProgressAndResumeFinishes) {
  for (int sig : {SIGINT, SIGTERM}) {
    e2e::TempDir d;
    auto yaml = d.write("s.yaml", toy_sweep("sig", "[1, 2, 3]", "150", 1, "isolate: always\n"));
    const auto out = d.path / "out";
    pid_t pid = start({"run", yaml.string(), "--out", out.string()}, d.path / "log.txt");
    ASSERT_TRUE(wait_for([&] { return lines_in(out / "journal.jsonl") >= 1; }, 20));
    kill(pid, sig);
    EXPECT_EQ(wait_exit(pid), 128 + sig) << e2e::slurp(d.path / "log.txt");
    const std::string log = e2e::slurp(d.path / "log.txt");
    EXPECT_NE(log.find("--resume"), std::string::npos) << log;
    const auto done = lines_in(out / "journal.jsonl");
    EXPECT_GE(done, 1u);
    EXPECT_LT(done, 6u) << "stopped early";
    EXPECT_EQ(read_csv(out / "summary.csv").size(), done) << "outputs hold every committed case";
    auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
    ASSERT_EQ(r.code, 0) << r.output;
    expect_consistent(out, 6, 1);
  }
}

TEST(ResultsFolder, TimeoutHoldsAcrossAHundredThousandRepetitions) {
  for (std::string isolate : {"never", "always"}) {
    e2e::TempDir d;
    auto yaml = d.write("t.yaml",
                        "name: tmo\nproblem: toy\ninstances:\n  - generator: count\nsolvers:\n"
                        "  - name: cpu.right\n    params: {sleep_ms: 1}\nrepetitions: "
                        "100000\nwarmup: 2\ntimeout_s: 1\n"
                        "isolate: " +
                            isolate + "\n");
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_LT(wall, 10) << isolate;
    auto s = read_csv(d.path / "out/summary.csv");
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].at("status"), "timeout");
    EXPECT_NE(s[0].at("message").find("timeout_s 1 reached after"), std::string::npos)
        << s[0].at("message");
    const int reps = std::stoi(s[0].at("reps"));
    EXPECT_GT(reps, 100);
    EXPECT_LT(reps, 1200);
    EXPECT_EQ(read_csv(d.path / "out/runs.csv").size(), std::size_t(reps) + 1)
        << "the repetitions and a timeout row";
  }
}
