// reproduce_report.cpp — verdicts of `dpgpu reproduce` (reproduce_report.hpp).
#include "verify/reproduce_report.hpp"

#include <fmt/format.h>

#include <map>

#include "dpgpu/error.hpp"
#include "records/csv_table.hpp"
#include "verify/claims_pin.hpp"
#include "verify/claim_eval.hpp"
#include "verify/results_rows.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

// A claim on a ratio or a scaling is expected to carry over to another GPU, one on answers
// or counts to hold anywhere; one on a time, a rate or an energy is about its GPU.
std::string claim_kind(const Claim& c, const std::string& device) {
  if (c.ratio_to) return "ratio";
  if (c.scales_as) return "scaling";
  if (c.equals_optimum || c.equals) return "exact";
  return fmt::format("absolute ({})", device.empty() ? "device unknown" : device);
}

std::string md(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}

// The reference folder's outcome per claim id.
std::map<std::string, std::string> reference_details(const ReproduceExperiment& e,
                                                     std::string& device) {
  std::map<std::string, std::string> out;
  if (e.reference.empty()) return out;
  FolderClaims f = read_folder_claims(e.reference);
  device = f.device;
  for (const Claim& c : f.claims) {
    const ClaimOutcome o = evaluate_claim(c, f.rows);
    out[c.id] = fmt::format("{}: {}", o.held ? "held" : "FAILED", o.detail);
  }
  return out;
}

}  // namespace

std::vector<ReproducedClaim> reproduce_verdicts(const ReproduceExperiment& e, const fs::path& fresh,
                                                std::vector<std::string>* problems) {
  std::string ref_device;
  const auto refs = reference_details(e, ref_device);
  std::vector<ClaimRow> rows;
  std::string device, missing;
  if (fs::exists(fresh / "summary.csv")) {
    FolderClaims f = read_folder_claims(fresh, e.file);
    rows = f.rows, device = f.device;
    if (problems)
      for (const std::string& p : f.problems) problems->push_back(fresh.string() + ": " + p);
  } else {
    missing = "no results (the run did not finish)";
  }
  std::vector<ReproducedClaim> out;
  for (const Claim& c : e.claims) {
    ReproducedClaim r{
        e.name,
        c.id,
        c.paper,
        c.says,
        claim_kind(c, device.empty() ? ref_device : device),
        e.reference.empty() ? "none" : fmt::format("{} ({})", e.reference.string(), ref_device),
        refs.count(c.id) ? refs.at(c.id) : "not pinned there",
        "",
        ""};
    if (!missing.empty()) {
      r.verdict = "not evaluated", r.detail = missing;
    } else {
      try {
        const ClaimOutcome o = evaluate_claim(c, rows);
        const bool none = o.groups == 0 && o.rows == 0;
        r.verdict = none ? "not evaluated" : o.held ? "held" : "FAILED";
        r.detail = none ? "its selection finds no rows at this tier (a claim about sizes the "
                          "quick tier leaves out, or cases skipped here)"
                        : o.detail;
      } catch (const InputError& x) {
        r.verdict = "not evaluated", r.detail = x.what();
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

void pin_fresh_claims(const ReproduceExperiment& e, const fs::path& fresh,
                      const std::vector<ReproducedClaim>& verdicts) {
  if (!fs::exists(fresh / "summary.csv")) return;
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "experiment" << YAML::Value << e.name << YAML::Key
      << "claims" << YAML::Value << YAML::BeginSeq << YAML::EndSeq;
  std::size_t skipped = 0;
  out << YAML::Key << "not_checked" << YAML::Value << YAML::BeginMap;
  for (const ReproducedClaim& c : verdicts)
    if (c.verdict == "not evaluated")
      out << YAML::Key << c.id << YAML::Value << "not evaluated by dpgpu reproduce: " + c.detail,
          ++skipped;
  out << YAML::EndMap << YAML::EndMap;
  if (skipped > 0) write_file_atomically(fresh / kClaimsFile, std::string(out.c_str()) + "\n");
  const FolderClaims f = read_folder_claims(fresh, e.file);
  pin_claims(fresh, e.file, e.name, f.rows, utc_date());
}

std::string reproduce_markdown(const std::vector<ReproducedClaim>& claims, const std::string& how) {
  std::map<std::string, int> count;
  std::map<std::string, std::pair<int, int>> by_paper;  // evaluated, all
  for (auto& c : claims) {
    ++count[c.verdict];
    auto& [evaluated, all] = by_paper[c.paper.substr(0, 3)];
    evaluated += c.verdict != "not evaluated", ++all;
  }
  std::vector<std::string> papers;
  for (auto& [p, n] : by_paper) papers.push_back(fmt::format("{}: {} of {}", p, n.first, n.second));
  std::string s = fmt::format(
      "# dpgpu reproduce\n\n{}\n\n{} claims: {} held, {} failed, {} not evaluated "
      "(evaluated per paper: {}).\n\n"
      "| experiment | claim | paper | kind | reference | this run | verdict |\n"
      "|---|---|---|---|---|---|---|\n",
      how, claims.size(), count["held"], count["FAILED"], count["not evaluated"],
      fmt::join(papers, "; "));
  for (auto& c : claims)
    s +=
        fmt::format("| {} | `{}` | {} | {} | {}: {} | {} | {} |\n", c.experiment, c.id, md(c.paper),
                    md(c.kind), md(c.reference), md(c.reference_detail), md(c.detail), c.verdict);
  return s;
}

}  // namespace dpgpu
