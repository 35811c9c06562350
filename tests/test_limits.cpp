// Limits are limits: absurd settings, huge sweeps, duplicate cases and instances too large
// for memory are refused before anything runs, with the allowed range or the bytes.
#include <gtest/gtest.h>

#include <chrono>

#include "e2e_support.hpp"

using e2e::read_csv;
using e2e::run;

namespace {

const std::string kToy = DPGPU_TOY_BIN;

std::string toy(const std::string& n, const std::string& solvers, const std::string& extra = "") {
  return "name: lim\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: " + n +
         "}\nsolvers:\n" + solvers + "repetitions: 1\nwarmup: 0\n" + extra;
}

std::string list_of(int count) {
  std::string s = "[";
  for (int i = 0; i < count; ++i) s += (i ? ", " : "") + std::to_string(i);
  return s + "]";
}

}  // namespace

TEST(Limits, AbsurdTimeoutAndRepetitionsAreRefusedWithTheAllowedRange) {
  e2e::TempDir d;
  const std::string solvers = "  - name: cpu.right\n";
  auto t = d.write("t.yaml", toy("1", solvers, "timeout_s: 1e300\n"));
  auto r = run(kToy + " check " + t.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("t.yaml:10"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("at most 604800, one week"), std::string::npos) << r.output;
  auto reps =
      d.write("r.yaml", "name: lim\nproblem: toy\ninstances:\n  - generator: count\nsolvers:\n" +
                            solvers + "repetitions: 1000000000\n");
  r = run(kToy + " check " + reps.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("allowed: 1 to 1000000"), std::string::npos) << r.output;
  auto warm = d.write("w.yaml", toy("1", solvers, "warmup: 5000000\n"));
  EXPECT_EQ(run(kToy + " check " + warm.string()).code, 2);
  auto flag =
      run(kToy + " run " + t.string() + " --repetitions 2000000 --out " + (d.path / "o").string());
  EXPECT_EQ(flag.code, 2) << flag.output;
  EXPECT_FALSE(std::filesystem::exists(d.path / "o"));
}

TEST(Limits, SweepsAboveTheCaseLimitAreRefusedBeforeTheyExpand) {
  e2e::TempDir d;
  auto huge = d.write(
      "h.yaml",
      toy(list_of(1001), "  - name: cpu.right\n    params: {sleep_ms: " + list_of(1001) + "}\n"));
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run(kToy + " check " + huge.string());
  EXPECT_EQ(r.code, 2) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("expand to 1002001 cases, more than the limit of 1000000"),
            std::string::npos)
      << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("--max-cases"), std::string::npos);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10);
  auto small = d.write(
      "s.yaml", toy("[1, 2, 3, 4]", "  - name: cpu.right\n    params: {sleep_ms: [0, 1, 2]}\n"));
  auto refused =
      run(kToy + " run " + small.string() + " --max-cases 10 --out " + (d.path / "o").string());
  EXPECT_EQ(refused.code, 2) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(d.path / "o"));
  auto raised =
      run(kToy + " run " + small.string() + " --max-cases 12 --out " + (d.path / "o").string());
  EXPECT_EQ(raised.code, 0) << raised.output;
  EXPECT_EQ(read_csv(d.path / "o/summary.csv").size(), 12u);
}

TEST(Limits, DuplicateCaseIdsAreAnErrorAtCheckTime) {
  e2e::TempDir d;
  auto y = d.write("d.yaml",
                   toy("[1, 2]", "  - name: cpu.right\n  - name: cpu.bare\n  - name: cpu.right\n"));
  auto r = run(kToy + " check " + y.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("case 'count[n=1]#1/cpu.right' appears twice"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("solver: lines 7 and 9"), std::string::npos) << r.output;
}

TEST(Limits, AnInstanceTooLargeForMemoryIsAPlannedOomRowNotAFailure) {
  e2e::TempDir d;
  auto y = d.write("m.yaml", toy("[3, 1000000000]", "  - name: cpu.right\n"));
  auto check = run(kToy + " check " + y.string());
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("refused"), std::string::npos) << check.output;
  auto r = run(kToy + " run " + y.string() + " --out " + (d.path / "o").string());
  EXPECT_EQ(r.code, 0) << "planned refusals are not failures: " << r.output;
  EXPECT_NE(r.output.find("refused before running: not failures"), std::string::npos) << r.output;
  auto s = read_csv(d.path / "o/summary.csv");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].at("status"), "ok");
  EXPECT_EQ(s[1].at("status"), "oom");
  EXPECT_NE(s[1].at("message").find("needs 954 TiB of host memory"), std::string::npos)
      << s[1].at("message");  // 10^9 MiB
  EXPECT_NE(s[1].at("message").find("available"), std::string::npos) << s[1].at("message");
}

TEST(Limits, ARunTimeOomIsAFailure) {
  e2e::TempDir d;
  auto y = d.write("o.yaml", toy("1", "  - name: cpu.oom\n"));
  auto r = run(kToy + " run " + y.string() + " --out " + (d.path / "o").string());
  EXPECT_EQ(r.code, 1) << r.output;
}
