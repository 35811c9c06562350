// summary_recheck.hpp — `dpgpu verify` trusts no summary.csv value it can recompute: each
// case's times, counters, phases, work, throughput and objective are recomputed from runs.csv
// (the counted repetitions, as case_summary.cpp computes them). A value that agrees at
// summary.csv's precision is replaced by the exact one (an integer counter in full); one that
// disagrees, or one with no runs.csv to check it against, marks the row (kMismatchPrefix +
// column) so that a claim on it fails there, naming both numbers.
#pragma once
#include <filesystem>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

// Why each value that disagreed does (each also marked in its row).
std::vector<std::string> recheck_summary(const std::filesystem::path& dir,
                                         std::vector<ClaimRow>& summary,
                                         const std::vector<ClaimRow>& runs);

}  // namespace dpgpu
