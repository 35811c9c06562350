// seeds.hpp — fresh seeds for `dpgpu reproduce`: every generated instance source's seeds are
// shifted by one offset drawn from the clock (seed s becomes s + offset), through --set
// overrides (`instances.0.seeds=[1001]`, `parts.1.instances.0.seeds=[...]`). One offset for
// the whole run keeps distinct seeds distinct, and lets a claim that names an instance by
// its seed ("coin18-s1") follow it ("coin18-s1001"). File sources have no seeds.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

// An offset of at least 1000 from the clock (never 0: fresh seeds differ from the file's).
std::uint64_t clock_seed_offset();

// The --set overrides that shift the seeds of every generator source of `file` (after
// `sets`, the tier's overrides, are applied) by `offset`.
std::vector<std::string> fresh_seed_sets(const std::filesystem::path& file,
                                         const std::vector<std::string>& sets,
                                         std::uint64_t offset);

// "coin18-s1" -> "coin18-s1001" with offset 1000; a name without "-s<seed>" unchanged.
std::string shifted_instance(const std::string& name, std::uint64_t offset);

// The claim's conditions on `instance` (equal, any of, not equal) follow the shifted seeds.
void follow_seeds(Claim& claim, std::uint64_t offset);

}  // namespace dpgpu
