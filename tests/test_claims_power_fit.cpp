// power_fit claims (experiment/claims.hpp, verify/power_fit.hpp): value = a·x^k fitted by
// least squares on logs, its exponent or its extrapolation bounded, its largest error on the
// measured points within a tolerance. The fits are checked against values worked by hand.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "e2e_support.hpp"
#include "experiment/claims.hpp"
#include "verify/claim_eval.hpp"
#include "verify/power_fit.hpp"
#include "verify/sensitivity.hpp"

using dpgpu::Claim;
using dpgpu::ClaimRow;
using dpgpu::PowerPoint;

namespace {

std::vector<Claim> claims_of(const e2e::TempDir& dir, const std::string& yaml) {
  return dpgpu::read_claims_file(dir.write("exp.yaml", "name: exp\nclaims:\n" + yaml).string())
      .claims;
}

std::string error_of(const e2e::TempDir& dir, const std::string& yaml) {
  try {
    claims_of(dir, yaml);
  } catch (const dpgpu::InputError& e) {
    return e.what();
  }
  return "";
}

// cpu.serial rows with time = scale · n^k · (1 + wobble at the middle point).
std::vector<ClaimRow> serial_rows(double scale, double k, double wobble = 0) {
  std::vector<ClaimRow> rows;
  const std::vector<int> ns{512, 1024, 2048, 4096};
  for (std::size_t i = 0; i < ns.size(); ++i) {
    const double t = scale * std::pow(ns[i], k) * (i == 1 ? 1 + wobble : 1);
    rows.push_back({{"case_id", fmt::format("r{}/cpu.serial", ns[i])},
                    {"instance", fmt::format("random-n{}", ns[i])},
                    {"solver", "cpu.serial"},
                    {"status", "ok"},
                    {"i.n", std::to_string(ns[i])},
                    {"time_median_s", fmt::format("{}", t)}});
  }
  return rows;
}

const std::string kClaims = R"(  - id: cubic
    says: s
    paper: p
    rows: {solver: cpu.serial}
    power_fit: i.n
    within: 0.05
    at_least: 2.9
    at_most: 3.1
  - id: extrapolated
    says: s
    paper: p
    rows: {solver: cpu.serial}
    power_fit: i.n
    exponent: 3
    within: 0.05
    extrapolate_to: 16384
    at_least: 1000
  - id: fits_only
    says: s
    paper: p
    rows: {solver: cpu.serial}
    for_each: i.n
    power_fit: i.n
    within: 0.05
)";

}  // namespace

// (1, 1), (2, 8), (4, 32): on log2 axes x = 0, 1, 2 and y = 0, 3, 5, so k = 5 / 2,
// a = 2^(8/3 − 5/2) = 2^(1/6), and the worst point is (2, 8), off by 2^(1/3) − 1.
TEST(PowerFit, FreeExponentMatchesTheFitWorkedByHand) {
  auto f = dpgpu::fit_power({{1, 1}, {2, 8}, {4, 32}});
  ASSERT_TRUE(f.has_value());
  EXPECT_NEAR(f->k, 2.5, 1e-12);
  EXPECT_NEAR(f->a, std::pow(2, 1.0 / 6), 1e-12);
  EXPECT_EQ(f->worst, 1u);
  EXPECT_NEAR(f->max_error, std::cbrt(2.0) - 1, 1e-12);
  EXPECT_NEAR(f->at(8), std::pow(2, 23.0 / 3), 1e-9);  // the extrapolation
}

// k fixed at 3: log2(y / x^3) = 0, 0, −1, so a = 2^(−1/3) and (4, 32) is off by 1 − 2^(−2/3).
TEST(PowerFit, FixedExponentFitsTheScaleOnly) {
  auto f = dpgpu::fit_power({{1, 1}, {2, 8}, {4, 32}}, 3.0);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->k, 3.0);
  EXPECT_NEAR(f->a, std::pow(2, -1.0 / 3), 1e-12);
  EXPECT_EQ(f->worst, 2u);
  EXPECT_NEAR(f->max_error, 1 - std::pow(2, -2.0 / 3), 1e-12);
  // Exact power laws come back exactly, whatever their scale.
  auto g = dpgpu::fit_power({{512, 7e-9 * std::pow(512, 3.4)}, {3072, 7e-9 * std::pow(3072, 3.4)}});
  ASSERT_TRUE(g.has_value());
  EXPECT_NEAR(g->k, 3.4, 1e-9);
  EXPECT_NEAR(g->a / 7e-9, 1, 1e-9);
  EXPECT_LT(g->max_error, 1e-9);
}

TEST(PowerFit, NoFitOnNonPositiveValuesOrASingleX) {
  EXPECT_FALSE(dpgpu::fit_power({{1, 1}, {2, 0}}).has_value());
  EXPECT_FALSE(dpgpu::fit_power({{0, 1}, {2, 3}}).has_value());
  EXPECT_FALSE(dpgpu::fit_power({{2, 1}, {2, 3}}).has_value());  // no slope
  EXPECT_TRUE(dpgpu::fit_power({{2, 1}, {2, 3}}, 3.0).has_value());
  EXPECT_FALSE(dpgpu::fit_power({}).has_value());
}

TEST(Claims, PowerFitBoundsTheExponentOrTheExtrapolation) {
  e2e::TempDir dir;
  auto c = claims_of(dir, kClaims);
  ASSERT_EQ(c.size(), 3u);
  auto cubic = serial_rows(2e-9, 3.0, 0.01);
  for (const Claim& claim : c)
    EXPECT_TRUE(dpgpu::evaluate_claim(claim, cubic).held)
        << claim.id << ": " << dpgpu::evaluate_claim(claim, cubic).detail;
  // 2e-9 · 16384^3 = 8796 s, the value the extrapolation bounds.
  auto e = dpgpu::evaluate_claim(c[1], cubic);
  ASSERT_TRUE(e.worst.has_value());
  EXPECT_NEAR(*e.worst / (2e-9 * std::pow(16384.0, 3)), 1, 0.01);
  EXPECT_NE(e.detail.find("fit at i.n=16384"), std::string::npos) << e.detail;
  EXPECT_EQ(dpgpu::describe_comparison(c[1]),
            "time_median_s fits a·i.n^3 within 5 %, fit at i.n=16384 >= 1000");
  // n^3.5 data: the exponent is out of bounds, and the fixed n^3 fit misses its points.
  auto steep = serial_rows(2e-9, 3.5);
  auto o = dpgpu::evaluate_claim(c[0], steep);
  EXPECT_FALSE(o.held) << o.detail;
  EXPECT_NE(o.detail.find("exponent 3.500"), std::string::npos) << o.detail;
  EXPECT_FALSE(dpgpu::evaluate_claim(c[1], steep).held);
  EXPECT_TRUE(dpgpu::evaluate_claim(c[2], steep).held);  // a power law all the same
  // A point 20 % off: every claim's tolerance of 5 % fails, naming the point.
  auto off = serial_rows(2e-9, 3.0, 0.2);
  auto w = dpgpu::evaluate_claim(c[2], off);
  EXPECT_FALSE(w.held);
  EXPECT_NE(w.detail.find("worst i.n=1024"), std::string::npos) << w.detail;
  // A slower machine: the same exponent, an extrapolation below the bound.
  EXPECT_FALSE(dpgpu::evaluate_claim(c[1], serial_rows(1e-10, 3.0)).held);
}

TEST(Claims, PowerFitNeedsThreePointsUnlessTheExponentIsFixed) {
  e2e::TempDir dir;
  auto c = claims_of(dir, kClaims);
  auto two = serial_rows(2e-9, 3.0);
  two.resize(2);
  auto free_fit = dpgpu::evaluate_claim(c[0], two);
  EXPECT_FALSE(free_fit.held);
  EXPECT_NE(free_fit.detail.find("two points always fit exactly"), std::string::npos)
      << free_fit.detail;
  EXPECT_TRUE(dpgpu::evaluate_claim(c[1], two).held) << dpgpu::evaluate_claim(c[1], two).detail;
  two.resize(1);
  EXPECT_FALSE(dpgpu::evaluate_claim(c[1], two).held);
}

TEST(Claims, PowerFitSensitivityMovesTheExponentAndZigzagsThePoints) {
  e2e::TempDir dir;
  auto c = claims_of(dir, kClaims);
  auto rows = serial_rows(2e-9, 3.0, 0.01);
  for (const Claim& claim : c) {
    auto s = dpgpu::claim_sensitivity(claim, rows);
    EXPECT_TRUE(s.tested) << claim.id;
    EXPECT_FALSE(s.cannot_fail) << claim.id << ": " << s.note;
  }
  auto k = dpgpu::claim_sensitivity(c[0], rows);
  ASSERT_TRUE(k.margin_x.has_value());
  EXPECT_NEAR(*k.margin_x, 3.1 / 3.0, 0.01);  // the nearer bound, at_most 3.1
  EXPECT_FALSE(k.survives_2x);
  // An exponent bound far below the data is loose (over 10x), not vacuous.
  auto loose = claims_of(
      dir,
      R"(  - {id: loose, says: s, paper: p, rows: {solver: cpu.serial}, power_fit: i.n, within: 0.05, at_least: 0.1}
)");
  auto l = dpgpu::claim_sensitivity(loose[0], rows);
  EXPECT_FALSE(l.cannot_fail);
  ASSERT_TRUE(l.margin_x.has_value());
  EXPECT_GT(*l.margin_x, 10);
}

TEST(Claims, PowerFitKeysAreCheckedWithFileLineAndWhy) {
  e2e::TempDir dir;
  const std::string base = "  - id: f\n    says: s\n    paper: p\n    rows: {solver: cpu.serial}\n";
  EXPECT_NE(error_of(dir, base + "    power_fit: i.n\n").find("power_fit needs 'within'"),
            std::string::npos);
  EXPECT_NE(error_of(dir, base + "    exponent: 3\n    within: 0.1\n")
                .find("exponent and extrapolate_to go with 'power_fit: COLUMN'"),
            std::string::npos);
  EXPECT_NE(error_of(dir, base + "    power_fit: i.n\n    within: 0.1\n    exponent: 3\n"
                                 "    at_least: 2\n")
                .find("which 'exponent' fixes"),
            std::string::npos);
  EXPECT_NE(error_of(dir, base + "    power_fit: i.n\n    within: 0.1\n    ratio_to: {solver: x}\n")
                .find("power_fit and ratio_to do not go together"),
            std::string::npos);
  const std::string two = error_of(dir, base +
                                            "    power_fit: i.n\n    within: 0.1\n"
                                            "    scales_as: n\n");
  EXPECT_NE(two.find("exp.yaml:3:5: claims[0] (f): give exactly one comparison"), std::string::npos)
      << two;
  EXPECT_EQ(error_of(dir, base + "    power_fit: i.n\n    within: 0.1\n    at_most: 4\n"), "");
}
