// Shards and merge (`dpgpu run --shard K/N`, `dpgpu merge`): N shards merged equal one plain
// run apart from times; merge refuses shards of different plans, names missing and
// duplicated cases; a shard interrupted (SIGINT, kill -9) and resumed loses and repeats
// nothing. Through the real dpgpu_toy binary, plus the partition itself.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "dpgpu/error.hpp"
#include "e2e_support.hpp"
#include "plan/shard.hpp"
#include "scaleout_support.hpp"

using e2e::read_csv;
using e2e::run;
namespace fs = std::filesystem;

namespace {

const std::string kToy = DPGPU_TOY_BIN;

// 12 instances × 4 solvers, series on, one solver skipped everywhere: 48 cases.
std::string sweep(const std::string& name, int reps, const std::string& sleep = "[0, 2]") {
  return "name: " + name +
         "\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [1, 2, 3, 4, 5, 6, 7, "
         "8, 9, 10, 11, 12]}\n"
         "solvers:\n  - name: cpu.right\n    params: {sleep_ms: " +
         sleep +
         "}\n  - name: cpu.steps\n  - name: gpu.none\n"
         "repetitions: " +
         std::to_string(reps) + "\nwarmup: 0\ntimeout_s: 30\nseries: true\n";
}

std::string shard_dir(const fs::path& base, int k, int n) {
  return (base / ("shard-" + std::to_string(k) + "-of-" + std::to_string(n))).string();
}

}  // namespace

TEST(Shards, FourShardsMergedEqualOnePlainRun) {
  e2e::TempDir d;
  auto yaml = d.write("s.yaml", sweep("four", 3));
  auto plain = run(kToy + " run " + yaml.string() + " --out " + (d.path / "plain").string());
  ASSERT_EQ(plain.code, 0) << plain.output;
  std::string folders;
  std::set<std::string> hashes;
  std::map<std::string, int> shard_of;
  for (int k = 0; k < 4; ++k) {
    // The default folder: results/<name>/shard-K-of-N under the working directory.
    auto r = run("cd " + d.path.string() + " && " + kToy + " run s.yaml --shard " +
                 std::to_string(k) + "/4");
    ASSERT_EQ(r.code, 0) << r.output;
    const fs::path dir = shard_dir(d.path / "results/four", k, 4);
    EXPECT_NE(r.output.find("of shard " + std::to_string(k) + "/4 recorded"), std::string::npos)
        << r.output;
    auto plan = nlohmann::json::parse(e2e::slurp(dir / "plan.json"));
    auto context = nlohmann::json::parse(e2e::slurp(dir / "context.json"));
    EXPECT_EQ(plan["shard"]["index"], k);
    EXPECT_EQ(plan["shard"]["count"], 4);
    EXPECT_EQ(context["shard"]["index"], k);
    EXPECT_EQ(context["plan_hash"], plan["hash"]);
    EXPECT_EQ(plan["fingerprint"]["cases"].size(), 48u)
        << "every shard records the whole plan's fingerprint";
    hashes.insert(plan["hash"]);
    for (auto& id : plan["shard"]["cases"])
      EXPECT_TRUE(shard_of.emplace(id, k).second) << id << " in two shards";
    EXPECT_EQ(read_csv(dir / "summary.csv").size(), plan["shard"]["cases"].size())
        << "a shard runs its cases only";
    EXPECT_GE(plan["shard"]["cases"].size(), 10u) << "balanced: 48 equal-ish cases in 4 shards";
    folders += " " + dir.string();
  }
  EXPECT_EQ(hashes.size(), 1u) << "one plan";
  EXPECT_EQ(shard_of.size(), 48u) << "every case in one shard";

  const fs::path merged = d.path / "merged";
  auto m = run(kToy + " merge" + folders + " --into " + merged.string());
  ASSERT_EQ(m.code, 0) << m.output;
  EXPECT_NE(m.output.find("48 of 48 cases recorded"), std::string::npos) << m.output;
  scaleout::expect_same_results(d.path / "plain", merged);
  for (int k = 0; k < 4; ++k)
    EXPECT_TRUE(fs::exists(merged / "contexts" / ("shard-" + std::to_string(k) + "-of-4.json")))
        << "shard contexts kept";
  auto context = nlohmann::json::parse(e2e::slurp(merged / "context.json"));
  EXPECT_EQ(context["merged_from"].size(), 4u);
  EXPECT_EQ(nlohmann::json::parse(e2e::slurp(merged / "plan.json"))["hash"], *hashes.begin());

  // The merged folder is a results folder of the plan: --resume finds nothing left to run.
  auto again = run(kToy + " run " + yaml.string() + " --out " + merged.string() + " --resume");
  EXPECT_EQ(again.code, 0) << again.output;
  EXPECT_EQ(again.output.find("[1/48]"), std::string::npos)
      << "nothing ran again: " << again.output;

  // An occupied --into needs --fresh.
  auto occupied = run(kToy + " merge" + folders + " --into " + merged.string());
  EXPECT_EQ(occupied.code, 2) << occupied.output;
  EXPECT_NE(occupied.output.find("is not empty"), std::string::npos) << occupied.output;
  auto fresh = run(kToy + " merge" + folders + " --into " + merged.string() + " --fresh");
  EXPECT_EQ(fresh.code, 0) << fresh.output;
  scaleout::expect_same_results(d.path / "plain", merged);
}

TEST(Shards, MergeRefusesShardsOfDifferentPlans) {
  e2e::TempDir d;
  auto a = d.write("a.yaml", sweep("plans", 2));
  auto b = d.write("b.yaml", sweep("plans", 3));
  ASSERT_EQ(run(kToy + " run " + a.string() + " --shard 0/2 --out " + shard_dir(d.path, 0, 2)).code,
            0);
  ASSERT_EQ(run(kToy + " run " + b.string() + " --shard 1/2 --out " + shard_dir(d.path, 1, 2)).code,
            0);
  const fs::path into = d.path / "merged";
  auto m = run(kToy + " merge " + shard_dir(d.path, 0, 2) + " " + shard_dir(d.path, 1, 2) +
               " --into " + into.string());
  EXPECT_EQ(m.code, 2) << m.output;
  EXPECT_NE(m.output.find("hold different plans"), std::string::npos) << m.output;
  EXPECT_NE(m.output.find("other repetitions: 2 recorded, 3 now"), std::string::npos) << m.output;
  EXPECT_FALSE(fs::exists(into)) << "nothing written";
}

TEST(Shards, MergeNamesMissingAndDuplicatedCasesAndWritesNothing) {
  e2e::TempDir d;
  auto yaml = d.write("s.yaml", sweep("gaps", 1));
  for (int k : {0, 1, 2})
    ASSERT_EQ(run(kToy + " run " + yaml.string() + " --shard " + std::to_string(k) + "/3 --out " +
                  shard_dir(d.path, k, 3))
                  .code,
              0);
  // Shard 2 lost its last cases (as if killed): its journal keeps only the first line.
  const fs::path two = shard_dir(d.path, 2, 3);
  std::string journal = e2e::slurp(two / "journal.jsonl");
  std::ofstream(two / "journal.jsonl", std::ios::trunc)
      << journal.substr(0, journal.find('\n') + 1);
  const std::size_t shard2_cases =
      nlohmann::json::parse(e2e::slurp(two / "plan.json"))["shard"]["cases"].size();
  const fs::path into = d.path / "merged";

  auto no_one = run(kToy + " merge " + shard_dir(d.path, 0, 3) + " " + two.string() + " --into " +
                    into.string());
  EXPECT_EQ(no_one.code, 2) << no_one.output;
  EXPECT_NE(no_one.output.find("no folder was given for shard 1/3"), std::string::npos)
      << no_one.output;
  EXPECT_NE(no_one.output.find("lacks " + std::to_string(shard2_cases - 1) + " of its " +
                               std::to_string(shard2_cases)),
            std::string::npos)
      << no_one.output;
  EXPECT_NE(no_one.output.find("--shard 2/3 --out " + two.string() + " --resume"),
            std::string::npos)
      << "says how to finish the shard: " << no_one.output;
  EXPECT_FALSE(fs::exists(into)) << "nothing written";

  // Merging a shard with a plain run of the same plan: every case of the shard twice.
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + (d.path / "plain").string()).code, 0);
  auto twice = run(kToy + " merge " + shard_dir(d.path, 0, 3) + " " + (d.path / "plain").string() +
                   " --into " + into.string());
  EXPECT_EQ(twice.code, 2) << twice.output;
  EXPECT_NE(twice.output.find("recorded in two folders"), std::string::npos) << twice.output;
  EXPECT_NE(
      twice.output.find("(1 repetitions) is in " + shard_dir(d.path, 0, 3) + " (shard 0/3) and in"),
      std::string::npos)
      << twice.output;
  EXPECT_FALSE(fs::exists(into));

  // --allow-partial writes what there is and says what is missing; resuming the merged
  // folder with the experiment runs exactly the missing cases.
  const std::string all =
      shard_dir(d.path, 0, 3) + " " + shard_dir(d.path, 1, 3) + " " + two.string();
  auto partial = run(kToy + " merge " + all + " --into " + into.string() + " --allow-partial");
  EXPECT_EQ(partial.code, 0) << partial.output;
  EXPECT_NE(partial.output.find("a partial merge: " + std::to_string(shard2_cases - 1) +
                                " of the plan's 48"),
            std::string::npos)
      << partial.output;
  EXPECT_EQ(read_csv(into / "summary.csv").size(), 48 - (shard2_cases - 1));
  auto resumed = run(kToy + " run " + yaml.string() + " --out " + into.string() + " --resume");
  ASSERT_EQ(resumed.code, 0) << resumed.output;
  scaleout::expect_same_results(d.path / "plain", into);
}

TEST(Shards, InterruptedShardResumesWithoutLossOrDuplicates) {
  for (int sig : {SIGINT, SIGKILL}) {
    e2e::TempDir d;
    auto yaml = d.write("s.yaml", sweep("stop", 2, "[30, 60]"));
    const std::string one = shard_dir(d.path, 1, 2);
    pid_t pid = scaleout::start(kToy, {"run", yaml.string(), "--shard", "1/2", "--out", one},
                                d.path / "log.txt");
    ASSERT_TRUE(scaleout::wait_for(
        [&] { return scaleout::lines_in(fs::path(one) / "journal.jsonl") >= 2; }, 30));
    kill(pid, sig);
    const int code = scaleout::wait_exit(pid);
    EXPECT_EQ(code, 128 + sig) << e2e::slurp(d.path / "log.txt");
    if (sig == SIGINT)
      EXPECT_NE(e2e::slurp(d.path / "log.txt").find("--shard 1/2 --out " + one + " --resume"),
                std::string::npos)
          << "the resume hint names the shard: " << e2e::slurp(d.path / "log.txt");
    const std::size_t planned =
        nlohmann::json::parse(e2e::slurp(fs::path(one) / "plan.json"))["shard"]["cases"].size();
    ASSERT_LT(scaleout::lines_in(fs::path(one) / "journal.jsonl"), planned) << "stopped mid-shard";

    // The folder is shard 1/2's: another shard, or no shard, may not resume it.
    auto other = run(kToy + " run " + yaml.string() + " --shard 0/2 --out " + one + " --resume");
    EXPECT_EQ(other.code, 2) << other.output;
    EXPECT_NE(other.output.find("holds shard 1/2 of this experiment, this run is shard 0/2"),
              std::string::npos)
        << other.output;
    auto whole = run(kToy + " run " + yaml.string() + " --out " + one + " --resume");
    EXPECT_EQ(whole.code, 2) << whole.output;

    auto resumed = run(kToy + " run " + yaml.string() + " --shard 1/2 --out " + one + " --resume");
    ASSERT_EQ(resumed.code, 0) << resumed.output;
    EXPECT_EQ(scaleout::lines_in(fs::path(one) / "journal.jsonl"), planned)
        << "each case once in the journal";
    ASSERT_EQ(
        run(kToy + " run " + yaml.string() + " --shard 0/2 --out " + shard_dir(d.path, 0, 2)).code,
        0);
    ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + (d.path / "plain").string()).code,
              0);
    auto m = run(kToy + " merge " + shard_dir(d.path, 0, 2) + " " + one + " --into " +
                 (d.path / "m").string());
    ASSERT_EQ(m.code, 0) << m.output;
    scaleout::expect_same_results(d.path / "plain", d.path / "m");
  }
}

TEST(Shards, PartitionIsBalancedDeterministicAndCoversEveryCaseOnce) {
  std::vector<dpgpu::CaseSpec> cases;
  for (int n = 1; n <= 40; ++n)
    for (std::string solver : {"cpu.a", "cpu.b", "gpu.c"}) {
      dpgpu::CaseSpec c;
      c.id = "count[n=" + std::to_string(n) + "]#1/" + solver;
      c.solver = solver;
      c.work = double(n * n);
      cases.push_back(c);
    }
  for (int shards : {1, 2, 3, 7, 200}) {
    const auto of = dpgpu::shard_of_cases(cases, shards);
    EXPECT_EQ(of, dpgpu::shard_of_cases(cases, shards)) << "deterministic";
    std::vector<double> load(std::size_t(shards), 0);
    std::map<std::pair<int, std::string>, int> solver_cases;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      ASSERT_GE(of[i], 0);
      ASSERT_LT(of[i], shards);
      load[std::size_t(of[i])] += cases[i].work;
      solver_cases[{of[i], cases[i].solver}]++;
    }
    const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
    if (shards <= 7)
      EXPECT_LE(*hi - *lo, 1600.0) << shards << " shards: within the largest case's cost";
    if (shards == 3)
      for (auto& [key, count] : solver_cases)
        EXPECT_LT(count, 30) << "shard " << key.first << " collects " << key.second;
  }
  // Equal costs: spread by count.
  for (auto& c : cases) c.work = 0;
  const auto of = dpgpu::shard_of_cases(cases, 4);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(std::count(of.begin(), of.end(), k), 30);

  EXPECT_EQ(dpgpu::parse_shard("3/8"), (dpgpu::Shard{3, 8}));
  EXPECT_EQ(dpgpu::parse_shard("3/8").folder_name(), "shard-3-of-8");
  for (std::string bad : {"8/8", "1", "-1/4", "a/b", "1/0", "0/4/2"})
    EXPECT_THROW(dpgpu::parse_shard(bad), dpgpu::InputError) << bad;
}

// Issue 35, item 12: the split never depends on the planning host's free memory. Where an
// instance cannot be built for memory its cost is unknown, so --shard refuses instead of
// splitting otherwise than a host where it fits (which would run cases twice and skip some).
TEST(Shards, TheSplitNeverDependsOnFreeMemory) {
  e2e::TempDir d;
  auto yaml = d.write("m.yaml",
                      "name: memsplit\nproblem: toy\ninstances:\n  - generator: count\n    params: "
                      "{n: [3, 50, 200, 7]}\nsolvers:\n  - cpu.right\n  - cpu.bare\n"
                      "repetitions: 1\nwarmup: 0\n");
  fs::create_directories(d.path / "cg/job");
  d.write("cg/job/memory.max", std::to_string(100u << 20) + "\n");
  d.write("cg/job/memory.current", "0\n");
  d.write("self", "0::/job\n");
  const std::string small =
      "DPGPU_CGROUP_FS=" + (d.path / "cg").string() + ":" + (d.path / "self").string() + " ";
  for (std::string how : {"run " + yaml.string() + " --dry-run --shard 0/2",
                          "check " + yaml.string() + " --shards 2"}) {
    auto big = run(kToy + " " + how);
    EXPECT_EQ(big.code, 0) << how << ": " << big.output;
    auto r = run(small + kToy + " " + how);
    EXPECT_EQ(r.code, 2) << how << ": " << r.output;
    EXPECT_NE(r.output.find("cannot split the plan into 2 shards on this host"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("n=200"), std::string::npos) << r.output;
  }
  // Without shards the small host plans it as usual: that instance is a planned oom row.
  EXPECT_EQ(run(small + kToy + " run " + yaml.string() + " --dry-run").code, 0);
}
