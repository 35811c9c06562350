// `dpgpu verify` without blind spots (issue 40): claims travel with their folder, a bad row
// the selection meets fails the claim, coverage cannot shrink silently, summary.csv is
// rechecked against runs.csv (integers exact), planned cases and stale files are noticed,
// and `--sensitivity` finds a claim that cannot fail. Each test is a mutation that passed
// before.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "e2e_support.hpp"
#include "experiment/claims.hpp"
#include "measure/summary.hpp"
#include "verify/claim_eval.hpp"
#include "verify/sensitivity.hpp"

namespace fs = std::filesystem;
using dpgpu::Claim;
using dpgpu::ClaimRow;

namespace {

const fs::path kSource = DPGPU_SOURCE_DIR;
const std::string kDpgpu = DPGPU_BIN;

using Edit = std::function<bool(std::map<std::string, std::string>&)>;  // false: drop the row

// Rewrites a CSV file row by row.
void edit_csv(const fs::path& file, const Edit& edit) {
  auto cells = dpgpu::csv_parse(e2e::slurp(file));
  const auto head = cells.front();
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    auto r = cells[i];
    if (i > 0 && r.size() == head.size()) {
      std::map<std::string, std::string> m;
      for (std::size_t k = 0; k < head.size(); ++k) m[head[k]] = r[k];
      if (!edit(m)) continue;
      for (std::size_t k = 0; k < head.size(); ++k) r[k] = m[head[k]];
    }
    for (std::size_t k = 0; k < r.size(); ++k) out += (k ? "," : "") + dpgpu::csv_escape(r[k]);
    out += "\n";
  }
  std::ofstream(file) << out;
}

// The same edit to runs.csv and summary.csv (a consistent change of the data).
void edit_both(const fs::path& dir, const Edit& edit) {
  edit_csv(dir / "runs.csv", edit);
  edit_csv(dir / "summary.csv", edit);
}

fs::path copy_reference(const e2e::TempDir& tmp, const std::string& name) {
  const fs::path ref = kSource / "results/reference/h100" / name;
  const fs::path copy = tmp.path / name;
  fs::copy(ref, copy, fs::copy_options::recursive);
  return copy;
}

// A small results folder: two solvers on three sizes, every file consistent.
fs::path toy_folder(const e2e::TempDir& tmp, const std::string& claims,
                    const std::string& name = "toy") {
  const fs::path dir = tmp.path / name;
  fs::create_directories(dir);
  std::ofstream(dir / "experiment.yaml") << "name: toy\n" << claims;
  std::string runs =
      "experiment,case_id,instance,solver,rep,status,valid,objective,time_s,c.nodes\n";
  std::string summary =
      "experiment,case_id,instance,solver,status,valid,objective,reps,time_median_s,c.nodes,i.n\n";
  for (int n : {10, 20, 30})
    for (auto [solver, t] : {std::pair{"cpu", 1.0}, std::pair{"gpu", 0.1}}) {
      const std::string id = fmt::format("r{}/{}", n, solver);
      const double time = t * n;
      runs += fmt::format("toy,{},r{},{},0,ok,true,{},{},{}\n", id, n, solver, n, time, 1000 + n);
      summary +=
          fmt::format("toy,{},r{},{},ok,true,{},1,{},{},{}\n", id, n, solver, n, time, 1000 + n, n);
    }
  std::ofstream(dir / "runs.csv") << runs;
  std::ofstream(dir / "summary.csv") << summary;
  return dir;
}

const std::string kToyClaims = R"(claims:
  - id: gpu_10x
    says: the GPU is 10x the CPU
    paper: test
    rows: {solver: cpu, status: ok}
    ratio_to: {solver: gpu}
    for_each: instance
    at_least: 9
)";

std::vector<Claim> claims_of(const e2e::TempDir& dir, const std::string& yaml) {
  return dpgpu::read_claims_file(dir.write("c.yaml", "name: c\n" + yaml).string()).claims;
}

}  // namespace

// A copy of a committed folder, outside the repository, finds the claims the folder has in
// the repository; a consistent slowdown of gpu.mcm_tiled then fails (before: "0 of 0", exit 0).
TEST(VerifyBlindSpots, ACopyFindsTheSameClaimsAndFailsOnSlowerData) {
  e2e::TempDir tmp;
  const fs::path copy = copy_reference(tmp, "mcm_table3_scaling");
  auto in_repo = e2e::run(kDpgpu + " verify " +
                          (kSource / "results/reference/h100/mcm_table3_scaling").string());
  auto outside = e2e::run(kDpgpu + " verify " + copy.string());
  EXPECT_EQ(in_repo.code, 0) << in_repo.output;
  EXPECT_EQ(outside.code, 0) << outside.output;
  auto tail = [](const std::string& s) { return s.substr(s.rfind('\n', s.size() - 2)); };
  EXPECT_EQ(tail(in_repo.output), tail(outside.output));
  EXPECT_EQ(outside.output.find(" 0 of 0 claims"), std::string::npos) << outside.output;
  edit_both(copy, [](auto& r) {
    if (r["solver"] != "gpu.mcm_tiled") return true;
    for (const char* k : {"time_s", "time_median_s", "time_min_s", "time_max_s", "time_mean_s"})
      if (r.count(k) && !r[k].empty()) r[k] = fmt::format("{}", std::stod(r[k]) * 10);
    return true;
  });
  auto slower = e2e::run(kDpgpu + " verify " + copy.string());
  EXPECT_EQ(slower.code, 1) << slower.output;
  EXPECT_NE(slower.output.find("FAILED"), std::string::npos) << slower.output;
}

// A folder without claims verified nothing: exit 3, never 0.
TEST(VerifyBlindSpots, NoClaimsIsNothingVerified) {
  e2e::TempDir tmp;
  const fs::path dir = toy_folder(tmp, "");
  auto r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("nothing verified"), std::string::npos) << r.output;
  fs::create_directories(tmp.path / "empty");
  EXPECT_EQ(e2e::run(kDpgpu + " verify " + (tmp.path / "empty").string()).code, 3);
}

// A row the selection meets that ended invalid fails the claim, though the claim selects
// `status: ok` (before: the row was dropped and the claim held); `tolerate` allows it.
TEST(VerifyBlindSpots, AnInvalidRowTheSelectionMeetsFailsTheClaim) {
  e2e::TempDir tmp;
  std::vector<ClaimRow> rows;
  for (int n : {10, 20})
    rows.push_back({{"case_id", fmt::format("t{}", n)},
                    {"instance", fmt::format("t{}", n)},
                    {"solver", "x"},
                    {"status", "ok"},
                    {"objective", "5"},
                    {"known_optimum", "5"}});
  rows[1]["status"] = "invalid", rows[1]["objective"] = "7", rows[1]["message"] = "wrong tour";
  auto c = claims_of(tmp, R"(claims:
  - {id: optimal, says: s, paper: p, rows: {solver: x, status: ok}, equals: optimum}
  - {id: tolerant, says: s, paper: p, rows: {solver: x, status: ok}, equals: optimum, tolerate: [invalid]}
)");
  auto out = dpgpu::evaluate_claim(c[0], rows);
  EXPECT_FALSE(out.held) << out.detail;
  EXPECT_NE(out.detail.find("t20: status invalid (wrong tour)"), std::string::npos) << out.detail;
  EXPECT_TRUE(dpgpu::evaluate_claim(c[1], rows).held);
}

// Coverage: fewer rows or instances than the claim's minimum fail it.
TEST(VerifyBlindSpots, CoverageBelowTheMinimumFails) {
  e2e::TempDir tmp;
  std::vector<ClaimRow> rows;
  for (int n : {10, 20, 30})
    for (auto [s, t] : {std::pair{"cpu", "10"}, std::pair{"gpu", "1"}})
      rows.push_back({{"case_id", fmt::format("{}{}", s, n)},
                      {"instance", fmt::format("r{}", n)},
                      {"solver", s},
                      {"status", "ok"},
                      {"time_median_s", t}});
  auto c = claims_of(tmp, kToyClaims.substr(0, kToyClaims.size() - 1) +
                              "\n    min_rows: 6\n    min_instances: 3\n");
  auto whole = dpgpu::evaluate_claim(c[0], rows);
  EXPECT_TRUE(whole.held) << whole.detail;
  EXPECT_EQ(whole.rows, 6u);
  EXPECT_EQ(whole.instances, 3u);
  rows.erase(rows.begin());  // cpu at r10
  auto out = dpgpu::evaluate_claim(c[0], rows);
  EXPECT_FALSE(out.held);
  EXPECT_NE(
      out.detail.find(
          "covers 4 rows, fewer than min_rows 6; covers 2 instances, fewer than min_instances 3"),
      std::string::npos)
      << out.detail;
}

// Deleting bitset-DFS rows of 4 large instances of the committed Table 2 folder (both files,
// consistently) fails its pinned claims (before: 11 of 11 hold).
TEST(VerifyBlindSpots, RemovedRowsOfAReferenceFolderFail) {
  e2e::TempDir tmp;
  const fs::path copy = copy_reference(tmp, "ivm_table2_speedups");
  ASSERT_EQ(e2e::run(kDpgpu + " verify " + copy.string()).code, 0);
  int dropped = 0;
  std::set<std::string> gone;
  edit_both(copy, [&](auto& r) {
    if (r["solver"] != "gpu.bpdfs" || std::stoi(r["i.n"]) < 16) return true;
    if (gone.size() < 4 || gone.count(r["instance"])) gone.insert(r["instance"]), ++dropped;
    return !gone.count(r["instance"]);
  });
  ASSERT_GT(dropped, 0);
  auto r = e2e::run(kDpgpu + " verify " + copy.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("fewer than min_rows"), std::string::npos) << r.output;
}

// summary.csv altered alone disagrees with runs.csv: the folder and the claim on it fail.
TEST(VerifyBlindSpots, SummaryThatDisagreesWithRunsFails) {
  e2e::TempDir tmp;
  const fs::path dir = toy_folder(tmp, kToyClaims);
  EXPECT_EQ(e2e::run(kDpgpu + " verify " + dir.string()).code, 0);
  edit_csv(dir / "summary.csv", [](auto& r) {
    if (r["case_id"] == "r20/gpu") r["time_median_s"] = "0.5";
    return true;
  });
  auto r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("r20/gpu: summary.csv's time_median_s is 0.5, runs.csv gives 2"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("PROBLEM 1 summary.csv value(s) disagree"), std::string::npos)
      << r.output;
}

// A node count off by one in the records fails an exact `equals` over node counts; summary.csv
// at 6 significant digits could not show it. The failure names the instance that is off.
TEST(VerifyBlindSpots, ANodeCountOffByOneFailsAndNamesItsInstance) {
  e2e::TempDir tmp;
  const std::string claims = R"(claims:
  - {id: nodes, says: s, paper: p, rows: {solver: cpu}, column: c.nodes, for_each: instance, equals: 1010}
  - {id: same_nodes, says: s, paper: p, rows: {solver: cpu}, ratio_to: {solver: gpu}, column: c.nodes, for_each: instance, equals: 1}
)";
  const fs::path dir = toy_folder(tmp, claims);
  edit_both(dir, [](auto& r) {
    r["c.nodes"] = r["instance"] == "r20" ? "1490911664" : "1010";
    return true;
  });
  edit_csv(dir / "runs.csv", [](auto& r) {
    if (r["case_id"] == "r20/gpu") r["c.nodes"] = "1490911665";
    return true;
  });
  edit_csv(dir / "summary.csv", [](auto& r) {  // as 6 digits wrote it
    if (r["instance"] == "r20") r["c.nodes"] = "1.49091e+09";
    return true;
  });
  auto r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("FAILED same_nodes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FAILED nodes [p] c.nodes equals 1010 for each instance: worst "
                          "instance=r20: 1490911664"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(dpgpu::summary_number(1490911664, {1490911664.0}), "1490911664");
  EXPECT_EQ(dpgpu::summary_number(2.5, {2, 3}), "2.5");
  EXPECT_EQ(dpgpu::summary_number(0.123456789, {0.123456789}), "0.123457");
}

// A run cut short (plan.json lists a case with no row) and a stale summary (the journal has
// a case summary.csv lacks) are failed checks, not "all hold".
TEST(VerifyBlindSpots, MissingPlannedCasesAndStaleFilesFail) {
  e2e::TempDir tmp;
  const fs::path dir = toy_folder(tmp, kToyClaims);
  std::ofstream(dir / "plan.json")
      << R"({"fingerprint": {"cases": ["r10/cpu", "r10/gpu", "r20/cpu", "r20/gpu", "r30/cpu", "r30/gpu", "r40/cpu"]}})";
  auto r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("1 of 7 planned cases (plan.json) have no row in summary.csv"),
            std::string::npos)
      << r.output;
  fs::remove(dir / "plan.json");
  std::ofstream(dir / "journal.jsonl") << R"({"case_id": "r10/cpu"})"
                                       << "\n"
                                       << R"({"case_id": "r50/gpu"})"
                                       << "\n";
  r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("1 of 2 cases of journal.jsonl are missing from summary.csv"),
            std::string::npos)
      << r.output;
}

// A filtered run (`dpgpu run --filter`, recorded in context.json's command line) plans every
// case but runs only the matching ones: the others are not missing; a matching one is.
TEST(VerifyBlindSpots, CasesAFilteredRunLeftOutAreNotMissing) {
  e2e::TempDir tmp;
  const fs::path dir = toy_folder(tmp, kToyClaims);
  std::ofstream(dir / "plan.json")
      << R"({"fingerprint": {"cases": ["r10/cpu", "r10/gpu", "r20/cpu", "r20/gpu", "r30/cpu", "r30/gpu", "r40/cpu", "r40/gpu"]}})";
  const auto context = [&](const std::string& filter) {
    std::ofstream(dir / "context.json")
        << R"({"host": {"command_line": ["dpgpu", "run", "e.yaml", "--filter", ")" << filter
        << R"(", "--out", "x"]}})";
  };
  context("^r[123]0/");
  auto r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.output.find("planned cases"), std::string::npos) << r.output;
  context("/gpu$");  // r40/gpu matches and has no row
  r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("1 of 4 planned cases (plan.json) have no row in summary.csv"),
            std::string::npos)
      << r.output;
}

// --sensitivity: a subset's maximum over the maximum of all rows (which include the subset)
// cannot fail; an honest ratio can.
TEST(VerifyBlindSpots, SensitivityFindsAClaimThatCannotFail) {
  e2e::TempDir tmp;
  std::vector<ClaimRow> rows;
  for (int n : {4, 8, 16})
    rows.push_back({{"case_id", fmt::format("s{}", n)},
                    {"instance", "x"},
                    {"solver", "gpu"},
                    {"s.sub", std::to_string(n)},
                    {"status", "ok"},
                    {"throughput", std::to_string(100 + n)}});
  rows.push_back({{"case_id", "cpu"},
                  {"instance", "x"},
                  {"solver", "cpu"},
                  {"status", "ok"},
                  {"throughput", "1"}});
  auto c = claims_of(tmp, R"(claims:
  - {id: vacuous, says: s, paper: p, rows: {solver: gpu, s.sub: [4, 8]}, ratio_to: {solver: gpu}, column: throughput, reduce: max, at_most: 1}
  - {id: honest, says: s, paper: p, rows: {solver: gpu}, ratio_to: {solver: cpu}, column: throughput, reduce: max, at_least: 100}
  - {id: loose, says: s, paper: p, rows: {solver: gpu}, ratio_to: {solver: cpu}, column: throughput, reduce: max, at_least: 2}
)");
  auto v = dpgpu::claim_sensitivity(c[0], rows);
  EXPECT_TRUE(v.tested && v.cannot_fail);
  auto h = dpgpu::claim_sensitivity(c[1], rows);
  EXPECT_TRUE(h.tested && !h.cannot_fail && !h.survives_2x);
  auto l = dpgpu::claim_sensitivity(c[2], rows);
  EXPECT_TRUE(l.tested && !l.cannot_fail && l.survives_2x);
  ASSERT_TRUE(l.margin_x.has_value());
  EXPECT_GT(*l.margin_x, 10);
  // A claim on a text (`valid equals true`) can fail too: its rows' text changed fails it.
  auto t = claims_of(tmp, R"(claims:
  - {id: checked, says: s, paper: p, rows: {solver: gpu}, column: instance, equals: x}
)");
  auto ts = dpgpu::claim_sensitivity(t[0], rows);
  EXPECT_TRUE(ts.tested && !ts.cannot_fail);
}

// --update-claims pins the claims into the folder with coverage, and a changed bound keeps
// its history (date, old bound).
TEST(VerifyBlindSpots, UpdateClaimsPinsCoverageAndRecordsTheOldBound) {
  e2e::TempDir tmp;
  const fs::path dir = toy_folder(tmp, kToyClaims);
  const fs::path exp = tmp.write("toy.yaml", "name: toy\n" + kToyClaims);
  auto r = e2e::run(kDpgpu + " verify --update-claims --experiment " + exp.string() + " " +
                    dir.string());
  EXPECT_EQ(r.code, 0) << r.output;
  std::string pinned = e2e::slurp(dir / "claims.yaml");
  EXPECT_NE(pinned.find("min_rows: 6"), std::string::npos) << pinned;
  EXPECT_NE(pinned.find("min_instances: 3"), std::string::npos) << pinned;
  std::string looser = kToyClaims;
  looser.replace(looser.find("at_least: 9"), 11, "at_least: 8");
  tmp.write("toy.yaml", "name: toy\n" + looser);
  r = e2e::run(kDpgpu + " verify --update-claims --experiment " + exp.string() + " " +
               dir.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("re-pinned gpu_10x: at_least: 9 -> at_least: 8"), std::string::npos)
      << r.output;
  pinned = e2e::slurp(dir / "claims.yaml");
  EXPECT_NE(pinned.find("old: \"at_least: 9\""), std::string::npos) << pinned;
  // Without --experiment the folder's own claims.yaml is what verify reads (in a copy too).
  r = e2e::run(kDpgpu + " verify " + dir.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("claims.yaml"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("revised"), std::string::npos) << r.output;
}

// A power_fit claim verifies on a folder through the command, and re-pinning with another
// extrapolation point records the old one (power_fit, exponent and extrapolate_to are bounds).
TEST(VerifyBlindSpots, PowerFitClaimsVerifyAndRepinKeepsTheOldExtrapolation) {
  e2e::TempDir tmp;
  const std::string claims = R"(claims:
  - id: cpu_linear
    says: the CPU's time grows as n
    paper: test
    rows: {solver: cpu}
    power_fit: i.n
    within: 0.01
    extrapolate_to: 100
    at_least: 90
    at_most: 110
)";
  const fs::path dir = toy_folder(tmp, claims);
  const fs::path exp = tmp.write("toy.yaml", "name: toy\n" + claims);
  auto r = e2e::run(kDpgpu + " verify --update-claims --experiment " + exp.string() + " " +
                    dir.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("i.n^1.000 over 3 points"), std::string::npos) << r.output;  // time = n
  EXPECT_NE(r.output.find("fit at i.n=100: 100"), std::string::npos) << r.output;
  std::string moved = claims;
  moved.replace(moved.find("extrapolate_to: 100"), 19, "extrapolate_to: 200");
  moved.replace(moved.find("at_least: 90"), 12, "at_least: 190");
  moved.replace(moved.find("at_most: 110"), 12, "at_most: 210");
  tmp.write("toy.yaml", "name: toy\n" + moved);
  r = e2e::run(kDpgpu + " verify --update-claims --experiment " + exp.string() + " " +
               dir.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("extrapolate_to: 100 ->"), std::string::npos) << r.output;
  const std::string pinned = e2e::slurp(dir / "claims.yaml");
  EXPECT_NE(pinned.find("extrapolate_to: 100\""), std::string::npos) << pinned;
  r = e2e::run(kDpgpu + " verify --sensitivity " + dir.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("CANNOT-FAIL"), std::string::npos) << r.output;
}
