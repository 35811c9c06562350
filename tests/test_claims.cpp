// Claims (experiment/claims.hpp) read, checked and evaluated: the statements an experiment
// makes about its results, and `dpgpu verify` on a copy of a committed reference folder.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "e2e_support.hpp"
#include "experiment/claims.hpp"
#include "verify/claim_eval.hpp"

namespace fs = std::filesystem;
using dpgpu::Claim;
using dpgpu::ClaimRow;

namespace {

std::vector<Claim> claims_of(const e2e::TempDir& dir, const std::string& yaml) {
  return dpgpu::read_claims_file(dir.write("exp.yaml", "name: exp\nclaims:\n" + yaml).string())
      .claims;
}

// The InputError's message, or "" when none is thrown.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const dpgpu::InputError& e) {
    return e.what();
  }
  return "";
}

ClaimRow row(const std::string& solver, int n, double time, const std::string& extra_key = "",
             const std::string& extra = "") {
  ClaimRow r{{"case_id", solver + "/" + std::to_string(n)},
             {"solver", solver},
             {"status", "ok"},
             {"i.n", std::to_string(n)},
             {"time_median_s", fmt::format("{}", time)}};
  if (!extra_key.empty()) r[extra_key] = extra;
  return r;
}

const std::string kRatio = R"(  - id: gpu_faster
    says: The GPU is at least 10x the CPU at every n >= 1024.
    paper: test
    rows: {solver: cpu.x, i.n: ">= 1024"}
    ratio_to: {solver: gpu.x}
    for_each: i.n
    at_least: 10
)";

}  // namespace

TEST(Claims, ReadsEveryPart) {
  e2e::TempDir dir;
  auto claims = claims_of(dir, kRatio);
  ASSERT_EQ(claims.size(), 1u);
  const Claim& c = claims[0];
  EXPECT_EQ(c.id, "gpu_faster");
  EXPECT_EQ(c.paper, "test");
  EXPECT_EQ(c.column, "time_median_s");
  ASSERT_EQ(c.rows.conditions.size(), 2u);
  EXPECT_EQ(c.rows.conditions[1].column, "i.n");
  EXPECT_EQ(c.rows.conditions[1].op, dpgpu::Condition::Op::GreaterEqual);
  EXPECT_EQ(c.rows.conditions[1].number, 1024);
  ASSERT_TRUE(c.ratio_to);
  EXPECT_EQ(c.for_each, std::vector<std::string>{"i.n"});
  EXPECT_EQ(*c.at_least, 10);
  EXPECT_EQ(c.where.line, 3);
}

TEST(Claims, BadClaimsNameFileLineColumnAndWhatIsAllowed) {
  e2e::TempDir dir;
  const std::string base = "  - id: a\n    says: s\n    paper: p\n    rows: {solver: x}\n";
  auto msg = error_of([&] { claims_of(dir, base + "    at_most: 1\n    atleast: 2\n"); });
  EXPECT_NE(msg.find("exp.yaml:8:5: claims[0] (a): unknown key 'atleast' (allowed keys: id, says"),
            std::string::npos)
      << msg;
  msg = error_of([&] { claims_of(dir, base); });
  EXPECT_NE(msg.find("exp.yaml:3:5: claims[0] (a): give exactly one comparison"), std::string::npos)
      << msg;
  msg = error_of([&] { claims_of(dir, base + "    at_most: 1\n    reduce: best\n"); });
  EXPECT_NE(msg.find("exp.yaml:8:13:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("allowed: min, max, median, mean"), std::string::npos) << msg;
  msg = error_of([&] {
    claims_of(
        dir, "  - id: a\n    says: s\n    paper: p\n    rows: {i.n: \">= big\"}\n    at_most: 1\n");
  });
  EXPECT_NE(msg.find("exp.yaml:6:17: claims[0] (a): rows: 'i.n'"), std::string::npos) << msg;
  msg = error_of([&] { claims_of(dir, base + "    scales_as: \"n / (p\"\n    within: 0.1\n"); });
  EXPECT_NE(msg.find("exp.yaml:7:16: scales_as 'n / (p': missing ')'"), std::string::npos) << msg;
  msg = error_of([&] { claims_of(dir, base + "    at_most: 1\n" + base + "    at_most: 1\n"); });
  EXPECT_NE(msg.find("id 'a' is used twice"), std::string::npos) << msg;
}

TEST(Claims, RatioForEachAxisHoldsOrFailsWithBothSides) {
  e2e::TempDir dir;
  const Claim c = claims_of(dir, kRatio)[0];
  std::vector<ClaimRow> rows{
      row("cpu.x", 512, 1),  row("gpu.x", 512, 1),  // below the filter: not compared
      row("cpu.x", 1024, 2), row("gpu.x", 1024, 0.1),
      row("cpu.x", 2048, 8), row("gpu.x", 2048, 0.4)};
  auto out = dpgpu::evaluate_claim(c, rows);
  EXPECT_TRUE(out.held) << out.detail;
  EXPECT_EQ(out.groups, 2u);
  rows[5]["time_median_s"] = "1";  // 2048: 8x only
  out = dpgpu::evaluate_claim(c, rows);
  EXPECT_FALSE(out.held);
  EXPECT_EQ(out.held_groups, 1u);
  EXPECT_NE(out.detail.find("i.n=2048: 8 = 8 / 1"), std::string::npos) << out.detail;
}

TEST(Claims, ARowThatFailedFailsTheClaimAndSkippedRowsAreLeftOut) {
  e2e::TempDir dir;
  const Claim c = claims_of(dir, kRatio)[0];
  std::vector<ClaimRow> rows{row("cpu.x", 1024, 2), row("gpu.x", 1024, 0.1), row("cpu.x", 2048, 8),
                             row("gpu.x", 2048, 0)};
  rows[3]["status"] = "skipped";
  EXPECT_TRUE(dpgpu::evaluate_claim(c, rows).held);
  rows[3]["status"] = "timeout";
  auto out = dpgpu::evaluate_claim(c, rows);
  EXPECT_FALSE(out.held);
  EXPECT_NE(out.detail.find("status timeout"), std::string::npos) << out.detail;
}

TEST(Claims, ConstantsReduceOptimumAndScaling) {
  e2e::TempDir dir;
  auto claims = claims_of(dir, R"(  - id: every_row
    says: s
    paper: p
    rows: {solver: gpu.x}
    at_most: 0.5
  - id: best
    says: s
    paper: p
    rows: {solver: gpu.x}
    reduce: min
    at_most: 0.2
  - id: optimum
    says: s
    paper: p
    rows: {solver: gpu.x}
    equals: optimum
  - id: linear
    says: s
    paper: p
    rows: {solver: gpu.x}
    scales_as: "n"
    within: 0.05
)");
  std::vector<ClaimRow> rows{row("gpu.x", 100, 0.1, "objective", "7"),
                             row("gpu.x", 200, 0.2, "objective", "9"),
                             row("gpu.x", 400, 0.41, "objective", "11")};
  for (auto& r : rows) r["known_optimum"] = r["objective"];
  EXPECT_TRUE(dpgpu::evaluate_claim(claims[0], rows).held);
  EXPECT_TRUE(dpgpu::evaluate_claim(claims[1], rows).held);
  EXPECT_TRUE(dpgpu::evaluate_claim(claims[2], rows).held);
  EXPECT_TRUE(dpgpu::evaluate_claim(claims[3], rows).held)
      << dpgpu::evaluate_claim(claims[3], rows).detail;
  rows[1]["objective"] = "8";
  EXPECT_FALSE(dpgpu::evaluate_claim(claims[2], rows).held);
  rows[2]["time_median_s"] = "0.6";  // not linear, and above 0.5
  EXPECT_FALSE(dpgpu::evaluate_claim(claims[3], rows).held);
  EXPECT_FALSE(dpgpu::evaluate_claim(claims[0], rows).held);
}

TEST(Claims, AColumnTheResultsLackOrAnAmbiguousRatioIsBadInput) {
  e2e::TempDir dir;
  auto claims = claims_of(dir, R"(  - id: typo
    says: s
    paper: p
    rows: {solver: gpu.x}
    column: c.nodez
    at_most: 1
  - id: ambiguous
    says: s
    paper: p
    rows: {solver: cpu.x}
    ratio_to: {solver: gpu.x}
    at_most: 1
)");
  std::vector<ClaimRow> rows{row("cpu.x", 1, 1), row("gpu.x", 1, 1), row("gpu.x", 2, 1)};
  auto msg = error_of([&] { dpgpu::evaluate_claim(claims[0], rows); });
  EXPECT_NE(msg.find("exp.yaml:7:13: claims: typo: key 'column': no column 'c.nodez'"),
            std::string::npos)
      << msg;
  msg = error_of([&] { dpgpu::evaluate_claim(claims[1], rows); });
  EXPECT_NE(msg.find("ratio_to holds 2 rows at all rows; narrow the selection or set reduce"),
            std::string::npos)
      << msg;
}

TEST(Claims, CheckNamesUnknownColumnsAndEmptySelections) {
  e2e::TempDir dir;
  auto claims = claims_of(dir, kRatio);
  const std::vector<ClaimRow> cases{{{"solver", "cpu.x"}, {"i.n", "1024"}},
                                    {{"solver", "gpu.x"}, {"i.n", "1024"}}};
  const std::set<std::string> known{"solver", "i.n", "time_median_s"};
  EXPECT_EQ(error_of([&] { dpgpu::check_claims(claims, cases, known, {}); }), "");
  auto msg = error_of([&] { dpgpu::check_claims(claims, cases, {"solver", "time_median_s"}, {}); });
  EXPECT_NE(msg.find("exp.yaml:6:27: claims: gpu_faster: key 'rows': no column 'i.n'"),
            std::string::npos)
      << msg;
  const std::vector<ClaimRow> small{{{"solver", "cpu.x"}, {"i.n", "512"}},
                                    {{"solver", "gpu.x"}, {"i.n", "512"}}};
  msg = error_of([&] { dpgpu::check_claims(claims, small, known, {}); });
  EXPECT_NE(msg.find("exp.yaml:6:27: claims: gpu_faster: key 'rows': selects none of the 2 planned "
                     "cases ('i.n' has "
                     "the values: 512)"),
            std::string::npos)
      << msg;
}

// `dpgpu verify` on a copy of a committed reference folder: the experiment's claims hold on
// the committed data, fail (exit 1) when the data are altered against one, and a claim
// naming a column the results lack is bad input (exit 2) with the file, line and column.
namespace {

const fs::path kSource = DPGPU_SOURCE_DIR;
const std::string kDpgpu = DPGPU_BIN;

// Multiplies one case's time_median_s in summary.csv by `factor`.
void scale_time(const fs::path& summary, const std::string& case_id, double factor) {
  auto cells = dpgpu::csv_parse(e2e::slurp(summary));
  const auto& head = cells.front();
  const auto col = std::find(head.begin(), head.end(), "time_median_s") - head.begin();
  const auto id = std::find(head.begin(), head.end(), "case_id") - head.begin();
  std::string out;
  for (auto& r : cells) {
    if (r.size() == head.size() && r[id] == case_id)
      r[col] = fmt::format("{}", std::stod(r[col]) * factor);
    for (std::size_t k = 0; k < r.size(); ++k) out += (k ? "," : "") + dpgpu::csv_escape(r[k]);
    out += "\n";
  }
  std::ofstream(summary) << out;
}

}  // namespace

TEST(Verify, CommittedFolderHoldsAlteredCopyFailsBadClaimIsInput) {
  e2e::TempDir tmp;
  const fs::path ref = kSource / "results/reference/h100/pipeline_p_sweep";
  const fs::path exp = kSource / "experiments/pipeline_p_sweep.yaml";
  ASSERT_TRUE(fs::exists(ref / "summary.csv") && fs::exists(exp));
  const fs::path copy = tmp.path / "pipeline_p_sweep";
  fs::copy(ref, copy, fs::copy_options::recursive);

  auto r = e2e::run(kDpgpu + " verify --experiment " + exp.string() + " " + copy.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("held   over_serial_at_4096 [README headline]"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("FAILED"), std::string::npos) << r.output;

  // The serial baseline 100x faster: the 46x speed-up claim no longer holds.
  scale_time(copy / "summary.csv",
             "strided[init_max=1000000000,k=16,n=67108864,op=max,stride=4096]#1/cpu.serial", 0.01);
  r = e2e::run(kDpgpu + " verify --experiment " + exp.string() + " " + copy.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("FAILED over_serial_at_4096"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("claims hold"), std::string::npos) << r.output;

  const fs::path bad =
      tmp.write("bad.yaml",
                "name: pipeline_p_sweep\nclaims:\n  - id: typo\n    says: s\n    paper: p\n"
                "    rows: {solver: gpu.pipeline}\n    column: c.stepz\n    at_most: 1\n");
  r = e2e::run(kDpgpu + " verify --experiment " + bad.string() + " " + copy.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(bad.string() + ":7:13: claims: typo: key 'column': no column 'c.stepz'"),
            std::string::npos)
      << r.output;
  r = e2e::run(kDpgpu + " verify " + (tmp.path / "missing").string());
  EXPECT_EQ(r.code, 2) << r.output;
}
