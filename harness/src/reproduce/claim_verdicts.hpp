// claim_verdicts.hpp — every claim of a reproduced experiment judged on this run's results
// (held, failed, or not evaluated with why) beside its value on the committed reference
// folder, through the verifier's own reading and evaluation (verify/results_rows.hpp,
// verify/claim_eval.hpp). With fresh seeds a claim that names an instance by its seed
// follows it (seeds.hpp).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "reproduce/reproduce_plan.hpp"

namespace dpgpu {

enum class ClaimJudgement { Held, Failed, NotEvaluated };
const char* verdict_text(ClaimJudgement v);  // "held", "FAILED", "not evaluated"

struct ClaimVerdict {
  std::string experiment, id, paper, says, comparison;
  std::string kind;  // "ratio", "absolute (<GPU>)" or "exact"
  ClaimJudgement verdict = ClaimJudgement::NotEvaluated;
  std::string value;  // this run: the verifier's numbers, or why not evaluated
  // The reference folder's verdict ("held", "failed" or "n/a") and its numbers, or why n/a.
  std::string reference_verdict, reference_value;
  std::string reference_folder, reference_device, device;
};

// `run_error`: why the experiment produced no results to judge (empty when it did).
std::vector<ClaimVerdict> judge_experiment(const PlannedExperiment& e,
                                           const std::filesystem::path& run_dir,
                                           std::optional<std::uint64_t> seed_offset,
                                           const std::string& run_error);

// "ratio of GPU and CPU" for a ratio_to claim whose sides name GPU solvers on one and CPU
// solvers on the other (it measures two parts of one host); "ratio" for other ratio_to and
// scales_as claims and a power_fit's exponent; "absolute" for times, rates, energies and
// profiler metrics (and a power_fit's extrapolation); "exact" for answers and counts.
std::string claim_kind(const Claim& c);

// A CPU row (backend cpu) that asks for more threads (s.threads) than this machine has cores
// measures an oversubscribed CPU, not the solver: a claim on it (a thread-scaling claim, a GPU
// against 16 threads) is not evaluated here rather than judged on the wrong machine. Returns
// why, or nullopt. A GPU row's `threads` (per block) is no such request.
std::optional<std::string> threads_beyond_cores(const Claim& c, const std::vector<ClaimRow>& rows,
                                                int cores);

}  // namespace dpgpu
