// claim_sets.hpp — the --set overrides that keep an experiment's claims in step with what a
// reproduction runs. `dpgpu run` checks every claim against the planned cases, so a claim the
// tier cannot show (full_only) leaves the run's claims, and a claim that names an instance by
// its seed ("coin18-s1") names it by the fresh seed ("coin18-s1001", seeds.hpp). The results
// folder's pinned experiment.yaml then holds the claims the run was checked against.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "reproduce/tiers.hpp"

namespace dpgpu {

// Without full_only claims: `claims.I.rows.instance=...` (and ratio_to, at) for each instance
// a seed offset renames; with them: `claims=[...]` holding the claims kept, and `tiers={}`
// (the run is the tier's variant). Empty when nothing changes.
std::vector<std::string> claim_sets(const std::filesystem::path& file, const Tier& tier,
                                    std::uint64_t seed_offset);

}  // namespace dpgpu
