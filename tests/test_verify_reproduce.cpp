// `dpgpu reproduce` (issue 40) without a GPU: which experiments stand behind a paper's claims,
// the quick tier's copies (smaller half of each size sweep, fresh seeds, absolute file paths,
// accepted by `dpgpu check`), and the verdict per claim on a results folder beside the
// committed reference: held, failed, or not evaluated when the tier leaves its rows out.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "e2e_support.hpp"
#include "verify/reproduce_plan.hpp"
#include "verify/reproduce_report.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = DPGPU_SOURCE_DIR;
const std::string kDpgpu = DPGPU_BIN;

dpgpu::ReproduceExperiment experiment_of(const std::string& paper, const std::string& name) {
  auto all =
      dpgpu::reproduce_experiments(kSource / "experiments", {paper}, kSource / "results/reference");
  auto it = std::find_if(all.begin(), all.end(), [&](auto& e) { return e.name == name; });
  EXPECT_NE(it, all.end()) << name;
  return it == all.end() ? dpgpu::ReproduceExperiment{} : *it;
}

}  // namespace

TEST(Reproduce, QuickFreshCopiesAreSmallerNewSeedsAndCheckable) {
  e2e::TempDir tmp;
  auto r =
      e2e::run(kDpgpu + " reproduce 004 --dry-run --seed-base 5000 --out " + tmp.path.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("ivm_table2_speedups (papers 004"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("mcm_speed"), std::string::npos) << r.output;  // paper 002's
  const fs::path copy = tmp.path / "copies/ivm_table2_speedups.yaml";
  const std::string text = e2e::slurp(copy);
  EXPECT_NE(text.find("params: {n: [10, 11, 12, 13, 14, 15]}"), std::string::npos) << text;
  EXPECT_NE(text.find("seeds: [5000]"), std::string::npos) << text;
  EXPECT_NE(text.find("file: " +
                      (kSource / "../shared/data/tsplib/br17.atsp").lexically_normal().string()),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("claims:"), std::string::npos);
  auto check = e2e::run(kDpgpu + " check " + copy.string());
  EXPECT_EQ(check.code, 0) << check.output;
}

TEST(Reproduce, VerdictsBesideTheReference) {
  e2e::TempDir tmp;
  const auto e = experiment_of("002", "mcm_speed");
  ASSERT_FALSE(e.reference.empty());
  // The committed folder stands in for fresh results: every claim holds, each a ratio or an
  // absolute time named with its GPU.
  fs::copy(e.reference, tmp.path / "fresh", fs::copy_options::recursive);
  auto v = dpgpu::reproduce_verdicts(e, tmp.path / "fresh");
  ASSERT_EQ(v.size(), e.claims.size());
  for (auto& c : v) {
    EXPECT_EQ(c.verdict, "held") << c.id << ": " << c.detail;
    EXPECT_TRUE(c.kind == "ratio" || c.kind == "exact" || c.kind == "scaling" ||
                c.kind.rfind("absolute (NVIDIA H100", 0) == 0)
        << c.kind;
    EXPECT_NE(c.reference_detail.find("held"), std::string::npos);
  }
  // Without results every claim is listed, not evaluated, and the page says so.
  v = dpgpu::reproduce_verdicts(e, tmp.path / "missing");
  for (auto& c : v) EXPECT_EQ(c.verdict, "not evaluated");
  const std::string page = dpgpu::reproduce_markdown(v, "test");
  EXPECT_NE(
      page.find(fmt::format("{} claims: 0 held, 0 failed, {} not evaluated (evaluated per paper: "
                            "002: 0 of {})",
                            v.size(), v.size(), v.size())),
      std::string::npos)
      << page;
}
