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
