// claim_eval.hpp — one claim evaluated on a results folder's rows: held or failed, with the
// numbers on both sides. A claim the rows cannot answer (a column no row has, a ratio whose
// side holds several rows without `reduce`) is bad input: InputError naming FILE:LINE:COLUMN.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

struct ClaimOutcome {
  bool held = false;
  std::string detail;      // "i.n=4096: 1.94 = 0.107 / 0.0552 > 1.03; 1 of 3 groups hold"
  std::size_t groups = 0;  // points checked
  std::size_t held_groups = 0;
  std::size_t rows = 0, instances = 0;  // coverage: rows both sides selected, their instances
  std::optional<double> worst;          // the value nearest the bound (at_least/at_most)
};

// A row's key "!summary:<column>" holds why its summary.csv value cannot be trusted (it
// disagrees with runs.csv): a claim on that column fails there.
inline const std::string kMismatchPrefix = "!summary:";

// `rows`: the folder's summary rows (with known_optimum and metrics.csv's m.<metric>.min/.max
// joined in: verify/results_rows.hpp).
ClaimOutcome evaluate_claim(const Claim& claim, const std::vector<ClaimRow>& rows);

// "time_median_s ratio <= 1.03 for each i.n" — what the claim compares, for the verify line.
std::string describe_comparison(const Claim& claim);

}  // namespace dpgpu
