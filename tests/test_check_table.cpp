// `dpgpu check` (and `run --dry-run`): instance sizes, and what will happen to each case —
// run, skipped (unavailable solver, no GPU, a cap), refused (memory), or refused by an
// instance rule, which makes check and run fail (exit 2) naming every such case.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

using e2e::run;

namespace {

const std::string kToy = DPGPU_TOY_BIN;
const std::string kDpgpu = DPGPU_BIN;

// The line of `output` that holds `needle` (empty when none).
std::string line_with(const std::string& output, const std::string& needle) {
  auto at = output.find(needle);
  if (at == std::string::npos) return "";
  auto begin = output.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return output.substr(begin, output.find('\n', at) - begin);
}

}  // namespace

TEST(CheckTable, SizesAndWhatHappensToEachCase) {
  e2e::TempDir d;
  auto yaml = d.write(
      "c.yaml",
      "name: table\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [5, 1234]}\n"
      "solvers:\n  - cpu.right\n  - name: cpu.bare\n    max: {n: 100}\n  - cpu.overflowing\n  - "
      "gpu.none\n"
      "repetitions: 2\n");
  for (std::string command : {" check ", " run --dry-run "}) {
    auto r = run(kToy + command + yaml.string());
    ASSERT_EQ(r.code, 0) << command << r.output;
    // Each instance once, with its sizes, work and known optimum.
    EXPECT_NE(r.output.find("count[n=5]#1  n=5, work 5, known optimum 5\n"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("count[n=1234]#1  n=1234, work 1.23 k, known optimum 1234\n"),
              std::string::npos)
        << r.output;
    // Case 1 runs; a cap skips cpu.bare at n=1234 only; memory refuses cpu.overflowing; gpu.none is unavailable.
    EXPECT_NE(line_with(r.output, "     1  cpu.right").find("run"), std::string::npos) << r.output;
    EXPECT_NE(line_with(r.output, "     2  cpu.bare").find("run"), std::string::npos) << r.output;
    EXPECT_NE(line_with(r.output, "     6  cpu.bare")
                  .find("skipped: n=1234 is above this solver's max n=100"),
              std::string::npos)
        << r.output;
    EXPECT_NE(line_with(r.output, "     3  cpu.overflowing").find("refused: "), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("needs more than 16 EiB (the estimate overflows) of host memory"),
              std::string::npos);
    EXPECT_NE(line_with(r.output, "     4  gpu.none").find("skipped: "), std::string::npos)
        << r.output;
    // Long reasons are notes printed once.
    EXPECT_NE(r.output.find("[1] "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("table: 2 instances x 4 solver points = 8 cases, 2 repetitions each: "
                            "3 to run, 3 skipped, 2 refused\n"),
              std::string::npos)
        << r.output;
  }
}

TEST(CheckTable, EveryCaseThatBreaksAnInstanceRuleIsListedAndFails) {
  e2e::TempDir d;
  auto yaml = d.write("r.yaml",
                      "name: rules\nproblem: toy\ninstances:\n  - generator: count\n    params: "
                      "{n: [5, 500, 600]}\n"
                      "solvers:\n  - cpu.small_only\n  - cpu.right\nrepetitions: 1\nwarmup: 0\n");
  auto r = run(kToy + " check " + yaml.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(line_with(r.output, "     1  cpu.small_only").find("run"), std::string::npos)
      << r.output;
  EXPECT_NE(line_with(r.output, "     3  cpu.small_only")
                .find("refused by a rule: n=500 is above the 100"),
            std::string::npos)
      << r.output;
  EXPECT_NE(line_with(r.output, "     5  cpu.small_only").find("refused by a rule: n=600"),
            std::string::npos)
      << r.output;
  EXPECT_NE(line_with(r.output, "     4  cpu.right").find("run"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("4 to run, 0 skipped, 0 refused, 2 refused by a rule"), std::string::npos)
      << r.output;
  // The errors name the file and line of the solver, and the instance.
  EXPECT_NE(r.output.find(
                "r.yaml:7:5: solver 'cpu.small_only' cannot run instance 'count' (rule): n=500"),
            std::string::npos)
      << r.output;
  // run stops on the first, saying how many more there are; nothing is written.
  auto ran = run(kToy + " run " + yaml.string() + " --out " + (d.path / "o").string());
  EXPECT_EQ(ran.code, 2) << ran.output;
  EXPECT_NE(
      ran.output.find("n=500 is above the 100 this solver takes; and 1 more cases break a rule"),
      std::string::npos)
      << ran.output;
  EXPECT_FALSE(std::filesystem::exists(d.path / "o"));
}

// A GPU solver's rules hold on a machine without a GPU too: check finds the broken case
// whether the GPU is there or not (here: a capacity beyond 32-bit device weights).
TEST(CheckTable, GpuRulesAreCheckedWithoutAGpu) {
  e2e::TempDir d;
  auto yaml = d.write(
      "k.yaml",
      "name: knap\nproblem: knapsack\ninstances:\n  - generator: uncorrelated\n"
      "    params: {n: 10, capacity: [100, 3000000000]}\nsolvers:\n  - gpu.rowwise\n  - cpu.dp\n");
  auto r = run(kDpgpu + " check " + yaml.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("capacity=3000000000 n=10, work 30 G"), std::string::npos) << r.output;
  EXPECT_NE(line_with(r.output, "     3  gpu.rowwise")
                .find("refused by a rule: capacity 3000000000 exceeds"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(line_with(r.output, "     1  gpu.rowwise").find("refused"), std::string::npos)
      << r.output;
}
