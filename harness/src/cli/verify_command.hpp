// verify_command.hpp — `dpgpu verify RESULTS_DIR...`: each folder's claims (its pinned
// claims.yaml, else its experiment.yaml) evaluated on its committed records, one line per
// claim, then "N of M claims hold". The folder itself is checked too: planned cases without a
// row, stale derived files, summary.csv values runs.csv does not give (verify/). Exit 0 when
// all hold, 1 when a claim fails or a folder has a problem, 2 on bad input (a folder, a CSV, a
// claim naming what the results lack), 3 when nothing was verified (no claims).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace dpgpu {

struct VerifyOptions {
  std::vector<std::filesystem::path> dirs;
  std::filesystem::path experiment;  // claims from this file, not the folder's experiment
  bool markdown = false;             // a Markdown table per folder instead of lines
  bool json = false;                 // one JSON object on stdout (dpgpu report reads it)
  bool quiet_empty = false;          // folders without claims are fine among others
  bool update_claims = false;        // re-pin each folder's claims.yaml first (claims_pin.hpp)
  bool sensitivity = false;          // perturb each claim (sensitivity.hpp); exit 1 if one
                                     // cannot fail
  bool pins_current = false;         // a pinned claim that differs from experiments/ fails
};

inline constexpr int kNothingVerified = 3;

int verify_command(const VerifyOptions& options);

}  // namespace dpgpu
