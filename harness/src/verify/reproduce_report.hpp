// reproduce_report.hpp — `dpgpu reproduce`'s verdict on every claim of the papers asked for:
// the committed reference (its folder, GPU and numbers), this run's numbers, held / failed /
// not evaluated (why), and whether the claim is a ratio (expected to carry over to another
// GPU) or an absolute time or rate (named with its GPU). A page (reproduce.md) and a summary.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "verify/reproduce_plan.hpp"

namespace dpgpu {

struct ReproducedClaim {
  std::string experiment, id, paper, says;
  std::string kind;  // ratio, scaling, exact, or "absolute (NVIDIA H100 ...)"
  std::string reference, reference_detail;  // folder and GPU; the numbers there
  std::string verdict;                      // held, FAILED, not evaluated
  std::string detail;                       // this run's numbers, or why not evaluated
};

// Every claim of `e` on its fresh results folder `fresh` (missing: not evaluated, with why);
// the folder's own problems (planned cases without a row, ...) are added to `problems`.
std::vector<ReproducedClaim> reproduce_verdicts(const ReproduceExperiment& e,
                                                const std::filesystem::path& fresh,
                                                std::vector<std::string>* problems = nullptr);

// Pins the experiment's claims into the fresh folder (claims.yaml, claims_pin.hpp), those not
// evaluated listed under not_checked with why, so that `dpgpu verify` on the folder (or a copy)
// checks what reproduce checked. Nothing without results.
void pin_fresh_claims(const ReproduceExperiment& e, const std::filesystem::path& fresh,
                      const std::vector<ReproducedClaim>& verdicts);

// reproduce.md: one table row per claim, counts first.
std::string reproduce_markdown(const std::vector<ReproducedClaim>& claims, const std::string& how);

}  // namespace dpgpu
