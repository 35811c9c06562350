// results_rows.hpp — what `dpgpu verify` reads of a committed results folder: its summary
// rows (with each case's known optimum from runs.csv and its metrics' minimum and maximum over
// kernels from metrics.csv), the experiment it ran, the device, and that experiment's claims.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

struct FolderClaims {
  std::filesystem::path dir;
  std::string experiment;             // context.json's "experiment" (else the pinned copy's name)
  std::string device;                 // context.json's GPU name, else the host's CPU
  int cores = 0;                      // context.json's host cores (0: not recorded)
  std::filesystem::path claims_file;  // where the claims were read
  std::vector<Claim> claims;
  std::vector<ClaimRow> rows;  // summary.csv, joined and rechecked against runs.csv
  std::vector<ClaimRow> runs;  // runs.csv
  // The committed experiment above the folder (experiments/<name>.yaml), and how its claims
  // differ from the ones read here (empty: the same, or no such file).
  std::filesystem::path committed;
  std::string drift;
  std::vector<std::string> problems;  // folder_integrity.hpp's, and summary/runs mismatches
  std::map<std::string, std::string> not_checked;  // claims.yaml's: id → why
};

// Claims come from `experiment_file` when given, else from the folder's pinned claims.yaml
// (claims_pin.hpp), else from its pinned experiment.yaml (what the run ran). So a copy of the
// folder anywhere finds the same claims. InputError (exit 2) for a missing folder, a folder
// with claims but no summary.csv, unreadable CSV.
FolderClaims read_folder_claims(const std::filesystem::path& dir,
                                const std::filesystem::path& experiment_file = {});

// experiments/<name>.yaml in the nearest folder above `dir` that has it; empty if none.
std::filesystem::path committed_experiment(const std::filesystem::path& dir,
                                           const std::string& name);

// summary.csv's rows; known_optimum from runs.csv where summary.csv lacks it; from
// metrics.csv m.<metric>.min / m.<metric>.max (over kernels) and profile_cost_x.
std::vector<ClaimRow> read_result_rows(const std::filesystem::path& dir);

}  // namespace dpgpu
