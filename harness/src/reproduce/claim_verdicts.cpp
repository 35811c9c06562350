// claim_verdicts.cpp — claims judged on a reproduction and its reference (claim_verdicts.hpp).
#include "reproduce/claim_verdicts.hpp"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "dpgpu/error.hpp"
#include "reproduce/seeds.hpp"
#include "results/measuring_conditions.hpp"
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

// Why this machine could not run a side of the claim: every row one side selects is
// `skipped` (no GPU, too few GPUs, not enough memory), so the claim is not evaluated here
// rather than failed; a side with one row run is judged as usual.
std::optional<std::string> side_skipped_here(const Claim& c, const std::vector<ClaimRow>& rows) {
  auto skipped_side = [&](const Selection& s) -> std::optional<std::string> {
    std::optional<std::string> why;
    for (const ClaimRow& row : rows) {
      if (!selects(s, row, true)) continue;
      auto status = row.find("status");
      if (status == row.end() || status->second != "skipped") return std::nullopt;
      if (!why) {
        auto message = row.find("message");
        why = message == row.end() ? std::string("skipped") : message->second;
      }
    }
    return why;
  };
  auto why = skipped_side(c.rows);
  if (!why && c.ratio_to) why = skipped_side(*c.ratio_to);
  if (!why) return std::nullopt;
  return "the rows it compares were skipped on this machine: " + *why;
}

// The claims of a folder evaluated, by id: "held: detail", "failed: detail" or why not.
struct Judged {
  std::map<std::string, std::pair<std::optional<bool>, std::string>> by_id;
  std::string device, error;
};

// `skips_not_evaluated` (a reproduction): a claim whose side this machine skipped, or whose
// rows ask for more threads than it has cores, is not evaluated; a reference folder is
// judged as `verify` judges it.
Judged judge_folder(const fs::path& dir, const fs::path& experiment,
                    std::optional<std::uint64_t> offset, bool skips_not_evaluated) {
  Judged j;
  FolderClaims f;
  try {
    f = read_folder_claims(dir, experiment);
  } catch (const InputError& e) {
    j.error = e.what();
    return j;
  }
  j.device = f.device;
  // A run cut short (stopped, killed) or a damaged folder: its claims would be judged on the
  // rows that happen to be there.
  const std::string incomplete = skips_not_evaluated && !f.problems.empty()
                                     ? "its results are incomplete: " + f.problems.front()
                                     : "";
  for (const Claim& original : f.claims) {
    if (!incomplete.empty()) {
      j.by_id[original.id] = {std::nullopt, incomplete};
      continue;
    }
    Claim c = original;
    if (offset) follow_seeds(c, *offset);
    if (skips_not_evaluated) {
      auto why = side_skipped_here(c, f.rows);
      // The cores of the host that ran the rows (a rejudged reproduction is read elsewhere).
      if (!why) why = threads_beyond_cores(c, f.rows, f.cores > 0 ? f.cores : usable_cores());
      if (why) {
        j.by_id[c.id] = {std::nullopt, *why};
        continue;
      }
    }
    try {
      const ClaimOutcome o = evaluate_claim(c, f.rows);
      j.by_id[c.id] = {o.held, o.detail};
    } catch (const InputError& e) {
      j.by_id[c.id] = {std::nullopt, e.what()};
    }
  }
  return j;
}

// The reference's verdict on claim `id` and its numbers (or why it has none).
std::pair<std::string, std::string> reference_verdict(const Judged& ref, const std::string& id) {
  if (!ref.error.empty()) return {"n/a", ref.error};
  auto it = ref.by_id.find(id);
  if (it == ref.by_id.end()) return {"n/a", "not among the folder's claims"};
  const auto& [held, detail] = it->second;
  return {!held ? "n/a" : *held ? "held" : "failed", detail};
}

// Relative to the working directory when inside it: the report is committed beside the
// reference folders and names them as the repository does.
std::string shown_path(const fs::path& p) {
  if (p.empty()) return "";
  std::error_code ec;
  const fs::path rel = fs::relative(p, fs::current_path(), ec);
  if (ec || rel.empty() || *rel.begin() == "..") return p.string();
  return rel.string();
}

// "cpu" or "gpu" when every solver a selection names is of that backend (by the name's
// prefix), else "".
std::string side_backend(const Selection& side) {
  std::string backend;
  for (const Condition& cond : side.conditions) {
    if (cond.column != "solver" ||
        (cond.op != Condition::Op::Equal && cond.op != Condition::Op::AnyOf))
      continue;
    for (const std::string& solver : cond.texts) {
      const std::string b = solver.substr(0, solver.find('.'));
      if (b != "cpu" && b != "gpu") return "";
      if (!backend.empty() && backend != b) return "";
      backend = b;
    }
  }
  return backend;
}

}  // namespace

std::optional<std::string> threads_beyond_cores(const Claim& c, const std::vector<ClaimRow>& rows,
                                                int cores) {
  for (const ClaimRow& row : rows) {
    if (!selects(c.rows, row, true) && !(c.ratio_to && selects(*c.ratio_to, row, true))) continue;
    // A GPU solver's `threads` are threads per block, not cores (gpu.kawanami: 1024).
    if (auto backend = row.find("backend"); backend != row.end() && backend->second != "cpu")
      continue;
    auto threads = row.find("s.threads");
    if (threads == row.end()) continue;
    const auto n = cell_number(threads->second);
    if (n && *n > cores)
      return fmt::format("{} asks for {} threads and this machine has {} cores",
                         row.count("solver") ? row.at("solver") : std::string("a row"),
                         threads->second, cores);
  }
  return std::nullopt;
}

const char* verdict_text(ClaimJudgement v) {
  switch (v) {
    case ClaimJudgement::Held: return "held";
    case ClaimJudgement::Failed: return "FAILED";
    default: return "not evaluated";
  }
}

std::string claim_kind(const Claim& c) {
  // A GPU against a CPU measures two parts of one machine: it carries over to a like host.
  if (c.ratio_to) {
    const std::string a = side_backend(c.rows), b = side_backend(*c.ratio_to);
    if (!a.empty() && !b.empty() && a != b) return "ratio of GPU and CPU";
  }
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
    ref = judge_folder(e.reference_dir, e.exp.file, std::nullopt, false);
  const bool ran = e.skip.empty() && run_error.empty();
  Judged now;
  if (ran) now = judge_folder(run_dir, e.exp.file, seed_offset, true);
  std::vector<ClaimVerdict> out;
  for (const Claim& c : e.exp.claims) {
    ClaimVerdict v;
    v.experiment = e.exp.name, v.id = c.id, v.paper = c.paper, v.says = c.says;
    v.comparison = describe_comparison(c), v.kind = claim_kind(c);
    if (v.kind == "absolute" && !ref.device.empty()) v.kind += " (" + ref.device + ")";
    std::tie(v.reference_verdict, v.reference_value) = reference_verdict(ref, c.id);
    v.reference_folder = shown_path(e.reference_dir);
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
