// claims_pin.hpp — claims travel with their data. A results folder's claims.yaml holds the
// claims it is checked against, each with the coverage it had when pinned (min_rows,
// min_instances) and its history (revised:). `dpgpu verify --update-claims` writes it from the
// experiment's claims (experiments/<name>.yaml above the folder, or --experiment), recording
// the date and, for a claim whose bound changed, the previous bound. A copy of the folder
// anywhere finds the same claims.
//
//   # claims.yaml
//   experiment: mcm_speed
//   pinned: {date: 2026-11-28, from: experiments/mcm_speed.yaml}
//   claims:
//     - id: ...            # as in the experiment file, plus min_rows, min_instances, revised
//   not_checked:           # claims of the experiment this folder cannot check, and why
//     stealing_share_large: "no runs.csv: summary.csv's counters cannot be rechecked"
//
// Written by hand once, `not_checked` is kept by every re-pin.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

inline constexpr const char* kClaimsFile = "claims.yaml";

// What changed between the experiment's claims and the folder's pinned ones ("added a;
// changed b (at_least: 3 -> 2.5)"); empty when the same (pin-only keys aside).
std::string claims_drift(const std::filesystem::path& experiment_file,
                         const std::filesystem::path& pinned_file);

// Writes dir/claims.yaml from `source` (an experiment file or another claims.yaml), with
// coverage counted on `rows` and `today` (YYYY-MM-DD) as the date. Returns one line per claim
// that changed ("b: at_least 3 -> 2.5"), for the console.
std::vector<std::string> pin_claims(const std::filesystem::path& dir,
                                    const std::filesystem::path& source,
                                    const std::string& experiment,
                                    const std::vector<ClaimRow>& rows, const std::string& today);

// A pinned file's not_checked entries: claim id → why.
std::map<std::string, std::string> not_checked(const std::filesystem::path& pinned_file);

// Today's date, UTC, YYYY-MM-DD.
std::string utc_date();

}  // namespace dpgpu
