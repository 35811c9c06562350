// Issue 30, findings 21 and 22, through the real binaries: --set kept in memory (errors name
// the flag, nothing beside the experiment, plan.json and the resume hint repeat the flags,
// shell-quoted), `check --set`, solver lines reordered under --resume, a worker killed by
// the OOM killer run again on --resume, memory needs in human units, a misspelt profile
// metric at its line, `slurm --cpus-per-task 0` refused.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "e2e_support.hpp"
#include "scaleout_support.hpp"

using e2e::read_csv;
using e2e::run;
using e2e::slurp;

namespace {

namespace fs = std::filesystem;
const std::string kToy = DPGPU_TOY_BIN;
const std::string kDpgpu = DPGPU_BIN;

std::string toy(const std::string& name, const std::string& solvers,
                const std::string& extra = "") {
  return "name: " + name +
         "\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [1, 2, "
         "3]}\nsolvers:\n" +
         solvers + "repetitions: 1\nwarmup: 0\ntimeout_s: 30\n" + extra;
}

const std::string kTwoSolvers = "  - name: cpu.right\n    params: {sleep_ms: 150}\n  - cpu.bare\n";

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

std::size_t journal_lines(const fs::path& out) { return scaleout::lines_in(out / "journal.jsonl"); }

}  // namespace

// 21. An error in an override names the flag, never a temporary file.
TEST(CliInputs, ASetErrorNamesTheFlag) {
  e2e::TempDir d;
  auto yaml = d.write("small.yaml", toy("small", kTwoSolvers));
  auto r =
      run(kToy + " run " + yaml.string() + " --set repetitions=0 --out " + (d.path / "o").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--set repetitions=0: repetitions: must be at least 1"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find(".set-"), std::string::npos) << r.output;
  EXPECT_EQ(entries(d.path).size(), 1u) << "nothing written beside the experiment";
}

// 21. Nothing is written beside the experiment, even mid-run and after kill -9; plan.json
// names the real file and the flags; the Ctrl-C hint repeats the flags, shell-quoted.
TEST(CliInputs, SetOverridesStayInMemoryAndTheResumeHintRepeatsThem) {
  e2e::TempDir d;
  fs::create_directories(d.path / "exp");
  const fs::path yaml = d.path / "exp" / "small.yaml";
  std::ofstream(yaml) << toy("small", kTwoSolvers);
  const fs::path out = d.path / "r" / "sp ace";
  pid_t pid = scaleout::start(
      kToy,
      {"run", yaml.string(), "--set", "repetitions=3", "--set",
       "instances.count.params.n=[4, 5, 6]", "--repetitions", "2", "--out", out.string()},
      d.path / "log.txt");
  ASSERT_TRUE(scaleout::wait_for([&] { return journal_lines(out) >= 1; }, 20))
      << slurp(d.path / "log.txt");
  EXPECT_EQ(entries(d.path / "exp"), std::vector<std::string>{"small.yaml"}) << "mid-run";
  const auto plan = nlohmann::json::parse(slurp(out / "plan.json"));
  EXPECT_EQ(plan.at("experiment_file"), fs::absolute(yaml).string());
  EXPECT_EQ(plan.at("set"),
            (nlohmann::json{"repetitions=3", "instances.count.params.n=[4, 5, 6]"}));
  kill(pid, SIGINT);
  EXPECT_EQ(scaleout::wait_exit(pid), 130);
  const std::string log = slurp(d.path / "log.txt");
  const std::string hint =
      "dpgpu run " + yaml.string() +
      " --set repetitions=3 --set 'instances.count.params.n=[4, 5, 6]' --repetitions 2 --out '" +
      out.string() + "' --resume";
  EXPECT_NE(log.find(hint), std::string::npos) << log;
  // The hint, pasted into a shell, continues the run.
  auto resumed = run(kToy + hint.substr(std::string("dpgpu").size()));
  EXPECT_EQ(resumed.code, 0) << resumed.output;
  EXPECT_EQ(read_csv(out / "summary.csv").size(), 6u);
  EXPECT_EQ(read_csv(out / "runs.csv").size(),
            12u);  // 6 cases x 2 repetitions (--repetitions over --set)
  // kill -9 mid-run leaves nothing beside the experiment either.
  pid = scaleout::start(
      kToy, {"run", yaml.string(), "--set", "repetitions=1", "--out", (d.path / "k").string()},
      d.path / "log2.txt");
  ASSERT_TRUE(scaleout::wait_for([&] { return journal_lines(d.path / "k") >= 1; }, 20));
  kill(pid, SIGKILL);
  scaleout::wait_exit(pid);
  EXPECT_EQ(entries(d.path / "exp"), std::vector<std::string>{"small.yaml"}) << "after kill -9";
}

// 21. An experiment in a folder nobody may write runs with --set (skipped as root, who may).
TEST(CliInputs, SetWorksOnAReadOnlyFolder) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root writes into read-only folders; the test above checks nothing is written";
  e2e::TempDir d;
  fs::create_directories(d.path / "ro");
  std::ofstream(d.path / "ro" / "e.yaml") << toy("ro", "  - cpu.bare\n");
  fs::permissions(d.path / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  auto r = run(kToy + " run " + (d.path / "ro" / "e.yaml").string() +
               " --set repetitions=2 --out " + (d.path / "o").string());
  EXPECT_EQ(r.code, 0) << r.output;
}

// 22. `check` accepts the --set that `run --dry-run` accepts, and checks what it would run.
TEST(CliInputs, CheckAcceptsSet) {
  e2e::TempDir d;
  auto yaml = d.write("c.yaml", toy("c", "  - cpu.bare\n"));
  auto dry =
      run(kToy + " run " + yaml.string() + " --set instances.count.params.n=[7,8] --dry-run");
  auto check = run(kToy + " check " + yaml.string() + " --set instances.count.params.n=[7,8]");
  EXPECT_EQ(dry.code, 0) << dry.output;
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("n=8"), std::string::npos) << check.output;
  auto bad = run(kToy + " check " + yaml.string() + " --set repetitions=0");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.output.find("--set repetitions=0"), std::string::npos) << bad.output;
}

// 22. Solver lines reordered in the file continue the same plan: cases match by id.
TEST(CliInputs, ReorderedSolversDoNotBlockResume) {
  e2e::TempDir d;
  auto yaml = d.write("o.yaml", toy("order", "  - cpu.right\n  - cpu.bare\n"));
  const auto out = d.path / "out";
  ASSERT_EQ(
      run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter cpu.right").code,
      0);
  d.write("o.yaml", toy("order", "  - cpu.bare\n  - cpu.right\n"));
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(journal_lines(out), 6u) << "the three committed cases kept, the three others run";
  EXPECT_EQ(read_csv(out / "summary.csv").size(), 6u);
}

// 22. A worker killed by SIGKILL from outside (the OOM killer) is recorded as such and runs
// again on --resume, instead of staying `error`.
TEST(CliInputs, AWorkerKilledByTheOomKillerRunsAgainOnResume) {
  e2e::TempDir d;
  auto yaml = d.write(
      "k.yaml",
      "name: oomk\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: 4}\n"
      "solvers:\n  - cpu.killed_once\n  - cpu.bare\nrepetitions: 1\nwarmup: 0\nisolate: always\n");
  const auto out = d.path / "out";
  const std::string env = "DPGPU_TOY_KILL_ONCE=" + (d.path / "killed").string() + " ";
  auto first = run(env + kToy + " run " + yaml.string() + " --out " + out.string());
  EXPECT_EQ(first.code, 1) << first.output;
  bool seen = false;
  for (auto& row : read_csv(out / "summary.csv"))
    if (row.at("solver") == "cpu.killed_once") {
      seen = true;
      EXPECT_EQ(row.at("status"), "error");
    }
  EXPECT_TRUE(seen);
  EXPECT_NE(slurp(out / "journal.jsonl").find("\"killed_by_signal\":9"), std::string::npos);
  auto again = run(env + kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  EXPECT_EQ(again.code, 0) << again.output;
  for (auto& row : read_csv(out / "summary.csv"))
    EXPECT_EQ(row.at("status"), "ok") << row.at("solver");
  EXPECT_EQ(read_csv(out / "summary.csv").size(), 2u);
}

// 22. Memory needs in human units; an estimate that overflows says so.
TEST(CliInputs, MemoryNeedsPrintInHumanUnits) {
  e2e::TempDir d;
  auto yaml = d.write("m.yaml", toy("mem", "  - cpu.greedy\n  - cpu.overflowing\n"));
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "o").string());
  EXPECT_EQ(r.code, 0) << r.output;
  const std::string summary = slurp(d.path / "o" / "summary.csv") + r.output;
  EXPECT_EQ(summary.find("18446744073709551615"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("1152921504606846976"), std::string::npos) << summary;
  EXPECT_NE(summary.find("needs 1 EiB of host memory"), std::string::npos) << summary;
  EXPECT_NE(summary.find("the estimate overflows"), std::string::npos) << summary;
}

// 22. A misspelt profile metric is an error at its line and column.
TEST(CliInputs, AMisspeltProfileMetricIsNamedAtItsLine) {
  e2e::TempDir d;
  auto yaml = d.write("p.yaml",
                      toy("prof", "  - cpu.bare\n", "profile:\n  metrics: [ipc, gld_efficency]\n"));
  for (std::string cmd :
       {" check " + yaml.string(), " run " + yaml.string() + " --out " + (d.path / "o").string()}) {
    auto r = run(kToy + cmd);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(yaml.string() + ":12:18: profile.metrics: 'gld_efficency'"),
              std::string::npos)
        << r.output;
  }
  EXPECT_FALSE(fs::exists(d.path / "o"));
}

// 22. `slurm --cpus-per-task 0` (and --max-running 0) is refused, not dropped.
TEST(CliInputs, SlurmZeroCpusPerTaskIsRefused) {
  e2e::TempDir d;
  auto yaml = d.write("s.yaml", toy("sl", "  - cpu.bare\n"));
  for (std::string flag : {"--cpus-per-task 0", "--max-running 0"}) {
    auto r = run(kToy + " slurm " + yaml.string() + " --shards 2 " + flag + " --out " +
                 (d.path / "o").string());
    EXPECT_EQ(r.code, 2) << flag << ": " << r.output;
    EXPECT_NE(r.output.find(flag.substr(0, flag.find(' '))), std::string::npos) << r.output;
  }
}

// Issue 35, item 16: an error about a --set value names the flag, not the solver's line in
// the file (a max: key added by --set that names no size).
TEST(CliInputs, AnErrorAboutASetCapNamesTheFlag) {
  e2e::TempDir d;
  auto yaml = d.write("c.yaml", toy("capset", "  - name: cpu.bare\n"));
  auto r = run(kToy + " check " + yaml.string() + " --set solvers.cpu.bare.max.m=3");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("error: --set solvers.cpu.bare.max.m=3: "), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("c.yaml:"), std::string::npos) << r.output;
}
