// `dpgpu verify` on folders a run wrote (the toy problem's solvers): the run pins the
// experiment's claims into its folder, so a copy of the folder elsewhere checks them; a
// disagreeing solver turns every row of its instance invalid, and a claim whose selection
// meets those rows fails, though it asks for `status: ok` (issue 40).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "e2e_support.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kToy = DPGPU_TOY_BIN;

std::string toy_experiment(const std::string& solvers) {
  return "name: toyclaims\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [5, "
         "7]}\n"
         "solvers:\n" +
         solvers +
         "repetitions: 1\nwarmup: 0\ntimeout_s: 3\nclaims:\n"
         "  - id: right_counts\n    says: cpu.right counts every instance\n    paper: test\n"
         "    rows: {solver: cpu.right, status: ok}\n    column: objective\n    for_each: "
         "instance\n"
         "    at_least: 5\n";
}

}  // namespace

TEST(VerifyRuns, ARunsFolderCarriesItsClaimsToACopy) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_experiment("  - name: cpu.right\n  - name: cpu.bare\n"));
  const fs::path out = d.path / "out";
  ASSERT_EQ(e2e::run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  fs::remove(yaml);  // the experiment file is gone; the folder alone must do
  const fs::path copy = d.path / "elsewhere";
  fs::copy(out, copy, fs::copy_options::recursive);
  auto r = e2e::run(kToy + " verify " + copy.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("held   right_counts"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 of 1 claims hold"), std::string::npos) << r.output;
}

TEST(VerifyRuns, RowsMadeInvalidByADisagreementFailTheClaim) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_experiment("  - name: cpu.right\n  - name: cpu.wrong\n"));
  const fs::path out = d.path / "out";
  e2e::run(kToy + " run " + yaml.string() + " --out " + out.string());
  auto r = e2e::run(kToy + " verify " + out.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("FAILED right_counts"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("status invalid"), std::string::npos) << r.output;
}

// `dpgpu reproduce` end to end on the toy problem: the quick tier runs the smaller half of the
// sweep with fresh seeds and lists the claim about the largest size as not evaluated; the full
// tier evaluates both.
TEST(VerifyRuns, ReproduceRunsTheCopiesAndChecksTheClaims) {
  e2e::TempDir d;
  fs::create_directories(d.path / "experiments");
  d.write("experiments/toyrepro.yaml",
          "name: toyrepro\nproblem: toy\ninstances:\n  - generator: count\n"
          "    params: {n: [5, 7, 9, 11]}\n    seeds: [1]\nsolvers:\n  - cpu.right\n"
          "repetitions: 1\nwarmup: 0\ntimeout_s: 3\nclaims:\n"
          "  - {id: counts, says: s, paper: 999 Fig. 1, rows: {solver: cpu.right}, column: "
          "objective, for_each: instance, at_least: 5}\n"
          "  - {id: counts_big, says: s, paper: 999 Fig. 1, rows: {solver: cpu.right, i.n: 11}, "
          "column: objective, at_least: 11}\n");
  const std::string base = kToy + " reproduce --experiments " + (d.path / "experiments").string();
  auto quick = e2e::run(base + " --seed-base 77 --out " + (d.path / "quick").string());
  EXPECT_EQ(quick.code, 0) << quick.output;
  EXPECT_NE(quick.output.find("held          toyrepro/counts"), std::string::npos) << quick.output;
  EXPECT_NE(quick.output.find("not evaluated toyrepro/counts_big"), std::string::npos)
      << quick.output;
  EXPECT_NE(quick.output.find("1 of 2 claims evaluated, 1 held, 0 failed"), std::string::npos)
      << quick.output;
  EXPECT_NE(e2e::slurp(d.path / "quick/results/toyrepro/summary.csv").find("#77/cpu.right"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(d.path / "quick/reproduce.md"));
  // The fresh folder carries what reproduce checked: verify on it holds the evaluated claim
  // and names the other as not checked.
  auto v = e2e::run(kToy + " verify " + (d.path / "quick/results/toyrepro").string());
  EXPECT_EQ(v.code, 0) << v.output;
  EXPECT_NE(v.output.find("not checked here: counts_big"), std::string::npos) << v.output;
  EXPECT_NE(v.output.find("1 of 1 claims hold"), std::string::npos) << v.output;
  auto full = e2e::run(base + " --tier full --seeds reference --out " + (d.path / "full").string());
  EXPECT_EQ(full.code, 0) << full.output;
  EXPECT_NE(full.output.find("2 of 2 claims evaluated, 2 held"), std::string::npos) << full.output;
}
