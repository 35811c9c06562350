// tiers.hpp — an experiment file's `tiers:` key: how `dpgpu reproduce` runs it at a tier
// other than `full` (the file as written). A tier is data: --set overrides and a case filter,
// the same machinery as `dpgpu run --set/--filter`, plus the claims it cannot evaluate.
//
//   tiers:
//     quick:
//       set: ["instances.0.params.n=[1024, 4096]", "repetitions=2"]  # as dpgpu run --set
//       filter: "n=(1024|4096)\\]"        # optional: only cases whose id matches (run --filter)
//       full_only:                        # claims only the full sizes can show, with why
//         tile_over_omp_at_64k: needs n = 65536, which quick does not run
//       skip: needs 2 and 4 GPUs          # optional: the whole experiment is full tier only
//
// `dpgpu check` reads the key through the experiment parser (check_tiers): unknown keys or
// tiers, a --set path that names nothing, a filter that is no regex, a full_only id that is
// no claim of the file are errors naming FILE:LINE:COLUMN.
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

struct Tier {
  std::vector<std::string> sets;                 // --set PATH=VALUE, in order
  std::string filter;                            // regex on case ids; empty: every case
  std::map<std::string, std::string> full_only;  // claim id -> why it needs the full tier
  std::string skip;                              // non-empty: not run in this tier, and why
};

// The tiers a file may name (`full` is the file itself and takes no block).
const std::vector<std::string>& tier_names();  // {"quick", "full"}

// The `tiers:` value, read (structure only). InputError "FILE:LINE:COLUMN: tiers...: ...".
std::map<std::string, Tier> read_tiers(const YAML::Node& tiers, const std::string& file);

// read_tiers, and each tier's --set paths applied to a copy of `root`, its filter compiled,
// its full_only ids found among `claims`. What the experiment parser calls.
void check_tiers(const YAML::Node& tiers, const YAML::Node& root, const std::string& file,
                 const std::vector<Claim>& claims);

// The tiers of an experiment file (none: an empty map).
std::map<std::string, Tier> read_tiers_file(const std::filesystem::path& file);

}  // namespace dpgpu
