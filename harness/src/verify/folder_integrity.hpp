// folder_integrity.hpp — what `dpgpu verify` checks of a results folder before its claims:
// every planned case has its row (plan.json's case list against summary.csv: a run cut short
// or a deleted row), and the derived files are not stale (every case of journal.jsonl and of
// runs.csv is in summary.csv and no other). Each problem is a failed check, named.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

// The folder's problems, one line each ("3 of 10 planned cases have no row in summary.csv:
// ..."); empty when whole and fresh.
std::vector<std::string> folder_problems(const std::filesystem::path& dir,
                                         const std::vector<ClaimRow>& summary,
                                         const std::vector<ClaimRow>& runs);

}  // namespace dpgpu
