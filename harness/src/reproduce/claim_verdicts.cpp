// claim_verdicts.cpp — claims judged on a reproduction and its reference (claim_verdicts.hpp).
#include "reproduce/claim_verdicts.hpp"

#include <fmt/format.h>

#include <map>

#include "dpgpu/error.hpp"
#include "reproduce/seeds.hpp"
#include "verify/claim_eval.hpp"
#include "verify/results_rows.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

bool absolute_column(const std::string& col) {
  static const char* const kAbsolute[] = {"time_median_s",      "throughput",     "power_w",
                                          "energy_j",           "work_per_joule", "c.step_ns",
                                          "profile_cost_case_x"};
  for (const char* a : kAbsolute)
    if (col == a) return true;
  return col.rfind("m.", 0) == 0 || col.rfind("time_", 0) == 0;
}

// The claims of a folder evaluated, by id: "held: detail", "failed: detail" or why not.
struct Judged {
  std::map<std::string, std::pair<std::optional<bool>, std::string>> by_id;
  std::string device, error;
};

Judged judge_folder(const fs::path& dir, const fs::path& experiment,
                    std::optional<std::uint64_t> offset) {
  Judged j;
  FolderClaims f;
  try {
    f = read_folder_claims(dir, experiment);
  } catch (const InputError& e) {
    j.error = e.what();
    return j;
  }
  j.device = f.device;
  for (const Claim& original : f.claims) {
    Claim c = original;
    if (offset) follow_seeds(c, *offset);
    try {
      const ClaimOutcome o = evaluate_claim(c, f.rows);
      j.by_id[c.id] = {o.held, o.detail};
    } catch (const InputError& e) {
      j.by_id[c.id] = {std::nullopt, e.what()};
    }
  }
  return j;
}

std::string reference_text(const Judged& ref, const std::string& id) {
  if (!ref.error.empty()) return "n/a: " + ref.error;
  auto it = ref.by_id.find(id);
  if (it == ref.by_id.end()) return "n/a: not among the folder's claims";
  const auto& [held, detail] = it->second;
  return fmt::format("{}: {}", !held ? "n/a" : *held ? "held" : "failed", detail);
}

}  // namespace

const char* verdict_text(ClaimJudgement v) {
  switch (v) {
    case ClaimJudgement::Held: return "held";
    case ClaimJudgement::Failed: return "FAILED";
    default: return "not evaluated";
  }
}

std::string claim_kind(const Claim& c) {
  if (c.ratio_to || c.scales_as) return "ratio";
  if (c.power_fit && !c.power_fit->extrapolate_to) return "ratio";  // an exponent
  return absolute_column(c.column) ? "absolute" : "exact";
}

std::vector<ClaimVerdict> judge_experiment(const PlannedExperiment& e, const fs::path& run_dir,
                                           std::optional<std::uint64_t> seed_offset,
                                           const std::string& run_error) {
  Judged ref;
  if (e.reference_dir.empty())
    ref.error = "no committed reference folder";
  else
    ref = judge_folder(e.reference_dir, e.exp.file, std::nullopt);
  const bool ran = e.skip.empty() && run_error.empty();
  Judged now;
  if (ran) now = judge_folder(run_dir, e.exp.file, seed_offset);
  std::vector<ClaimVerdict> out;
  for (const Claim& c : e.exp.claims) {
    ClaimVerdict v;
    v.experiment = e.exp.name, v.id = c.id, v.paper = c.paper, v.says = c.says;
    v.comparison = describe_comparison(c), v.kind = claim_kind(c);
    if (v.kind == "absolute" && !ref.device.empty()) v.kind += " (" + ref.device + ")";
    v.reference = reference_text(ref, c.id);
    v.reference_folder = e.reference_dir.string();
    v.reference_device = ref.device;
    v.device = now.device;
    std::string why = not_evaluated_why(e, c);
    if (why.empty() && !run_error.empty()) why = "the run gave no results: " + run_error;
    if (why.empty() && !now.error.empty()) why = now.error;
    auto it = now.by_id.find(c.id);
    if (why.empty() && it == now.by_id.end()) why = "not among the results folder's claims";
    if (why.empty() && !it->second.first) why = it->second.second;
    if (!why.empty()) {
      v.value = why;
    } else {
      v.verdict = *it->second.first ? ClaimJudgement::Held : ClaimJudgement::Failed;
      v.value = it->second.second;
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace dpgpu
