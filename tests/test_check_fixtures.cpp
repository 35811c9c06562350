// `dpgpu check` on the experiment files of tests/fixtures/check/: each bad one is refused
// before anything runs (exit 2), on any machine, GPU or not, by an error that names the file,
// the line and column of the key at fault, the key and the rule. held_karp_optimum.yaml is
// good: it runs, with the optimum its file lacks found by Held-Karp at planning.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "dpgpu/gpu_presence.hpp"
#include "e2e_support.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kDpgpu = DPGPU_BIN;
const fs::path kFixtures = fs::path(DPGPU_TEST_FIXTURES) / "check";

struct Bad {
  std::string file;
  std::string at;                  // "LINE:COLUMN" after the file name
  std::vector<std::string> parts;  // the key, the rule
};

std::ostream& operator<<(std::ostream& os, const Bad& b) { return os << b.file; }

class CheckFixtures : public ::testing::TestWithParam<Bad> {};

TEST_P(CheckFixtures, RefusedBeforeRunningWithFileLineKeyAndRule) {
  const Bad& b = GetParam();
  const fs::path file = kFixtures / b.file;
  auto r = e2e::run(kDpgpu + " check " + file.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("error: " + file.string() + ":" + b.at + ": "), std::string::npos)
      << "expected " << file.string() << ":" << b.at << "\n"
      << r.output;
  for (const auto& part : b.parts)
    EXPECT_NE(r.output.find(part), std::string::npos) << part << "\n" << r.output;
}

const Bad kBad[] = {
    {"ivm_n_above_21.yaml",
     "7:5",
     {"solver 'gpu.ivm'", "instance 'rand23'", "n = 23 cities; at most 21"}},
    {"ivm_explorers_not_power.yaml",
     "10:7",
     {"solver 'gpu.ivm'", "'explorers' = 1000 is not a power of parameter 'arity' = 8"}},
    {"ivm_block_not_multiple.yaml",
     "9:14",
     {"solver 'gpu.bpdfs'", "parameter 'block'", "multiple of 32, got 48"}},
    {"initial_ub_no_optimum.yaml",
     "9:7",
     {"solver 'cpu.dfs'", "parameter 'initial_ub'", "no known optimum", "n <= 22", "OPTIMA.tsv",
      "'none' or a value"}},
    {"initial_ub_below_optimum.yaml",
     "12:7",
     {"solver 'cpu.omp_dfs'", "'initial_ub' = 5 is below", "optimum 933915"}},
    {"initial_ub_bad_form.yaml",
     "8:19",
     {"solver 'gpu.bpdfs'", "parameter 'initial_ub'", "'optimal', 'none'"}},
    {"pipeline_p_above_bound.yaml",
     "11:7",
     {"solver 'gpu.pipeline'", "'p' = 100000 exceeds the largest valid fold 5018", "p <= C+1"}},
    {"pipeline_sync_block.yaml",
     "11:7",
     {"solver 'gpu.pipeline'", "parameter 'p'", "sync block runs p·k = 2000 threads"}},
    {"plot_unknown_key.yaml",
     "10:5",
     {"plot[0]", "unknown key 'colour' for kind runtime", "allowed keys: kind"}},
    {"plot_unknown_kind.yaml",
     "8:11",
     {"plot[0]", "unknown kind 'runtimes'", "allowed kinds: runtime"}},
    {"plot_unknown_column.yaml",
     "10:22",
     {"plot[0]", "key 'series'", "no column 's.treads'", "s.initial_ub"}},
    {"claims_unknown_column.yaml",
     "12:29",
     {"claims: dfs_fast", "key 'rows'", "no column 's.treads'", "s.initial_ub"}},
    {"claims_empty_selection.yaml",
     "12:12",
     {"claims: ivm_fast", "key 'rows'", "selects none of the 2 planned cases",
      "'solver' has the values: cpu.dfs, cpu.held_karp"}},
    {"claims_unknown_key.yaml",
     "13:5",
     {"claims[0] (dfs_fast)", "unknown key 'atleast'", "allowed keys: id, says"}},
    {"claims_no_comparison.yaml", "8:5", {"claims[0] (dfs_fast)", "give exactly one comparison"}},
};

INSTANTIATE_TEST_SUITE_P(Fixtures, CheckFixtures, ::testing::ValuesIn(kBad), [](const auto& info) {
  return fs::path(info.param.file).stem().string();
});

// Every bad fixture is in the table above (a new one without an expectation fails here).
TEST(CheckFixturesTable, CoversEveryFixture) {
  std::size_t yaml = 0;
  for (auto& f : fs::directory_iterator(kFixtures))
    if (f.path().extension() == ".yaml") ++yaml;
  EXPECT_EQ(yaml, std::size(kBad) + 1) << "the bad fixtures and held_karp_optimum.yaml";
}

// rand8.atsp is in no OPTIMA.tsv: initial_ub: optimal has the planner find its optimum by
// Held-Karp; the searches start from it, their rows are checked against it, and their work
// is the nodes they counted.
TEST(CheckFixturesRun, OptimumOfAFileWithoutOneIsFoundByHeldKarp) {
  e2e::TempDir d;
  auto r = e2e::run(kDpgpu + " run " + (kFixtures / "held_karp_optimum.yaml").string() + " --out " +
                    (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  std::map<std::string, std::map<std::string, std::string>> by_solver;
  for (auto& row : e2e::read_csv(d.path / "out/runs.csv")) by_solver[row.at("solver")] = row;
  const auto& hk = by_solver.at("cpu.held_karp");
  ASSERT_EQ(hk.at("status"), "ok") << hk.at("message");
  EXPECT_EQ(hk.at("valid"), "true") << "checked against the planner's Held-Karp optimum";
  const auto& dfs = by_solver.at("cpu.dfs");
  ASSERT_EQ(dfs.at("status"), "ok") << dfs.at("message");
  EXPECT_EQ(dfs.at("objective"), hk.at("objective"));
  EXPECT_EQ(dfs.at("valid"), "true");
  EXPECT_EQ(dfs.at("c.bound"), hk.at("objective")) << "started from the optimum";
  EXPECT_EQ(dfs.at("work"), dfs.at("c.nodes")) << "a search's work is its nodes";
  EXPECT_NE(hk.at("work"), "") << "a DP's work is the instance's";
  const auto& ivm = by_solver.at("gpu.ivm");
  if (dpgpu::no_usable_gpu_reason().empty()) {
    ASSERT_EQ(ivm.at("status"), "ok") << ivm.at("message");
    EXPECT_EQ(ivm.at("objective"), hk.at("objective"));
    EXPECT_EQ(ivm.at("work"), ivm.at("c.nodes"));
    EXPECT_EQ(ivm.at("c.nodes"), dfs.at("c.nodes")) << "the same count from the optimal bound";
  } else {
    EXPECT_EQ(ivm.at("status"), "skipped");
    EXPECT_EQ(ivm.count("work") ? ivm.at("work") : "", "") << "no run, no nodes";
  }
}

}  // namespace
