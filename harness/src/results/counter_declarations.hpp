// counter_declarations.hpp — counters.json: what each solver of a results folder declares of
// its counters (kind, unit, help; counter.hpp), written when a run starts (beside plan.json) so
// plots and reports format a counter by its declaration, not by its name. A folder written
// before it has none: readers fall back to their rules on names. runs.csv, summary.csv and
// benchmark.json are unchanged by it.
//
//   {"about": "...", "solvers": {"<problem>": {"<solver>": {"work_counter": "nodes",
//     "counters": {"nodes": {"kind": "count", "unit": "nodes", "help": "..."}, ...}}}}}
#pragma once
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpgpu/registry_entries.hpp"
#include "plan/plan.hpp"

namespace dpgpu {

inline constexpr const char* kCountersFile = "counters.json";

// One solver's declarations, the harness's own counters (peak_device_bytes, ...) included.
nlohmann::json solver_counters_json(const SolverEntry& solver);

// counters.json's document for the solvers the plan's cases name (all cases, not only the
// selected ones: a resumed or filtered run keeps the others' rows).
nlohmann::json counter_declarations(const RunPlan& plan);

// Writes counters.json into `dir` (atomically), keeping the solvers an earlier counters.json
// there declares that this plan does not name.
void write_counter_declarations(const std::filesystem::path& dir, const RunPlan& plan);

// The union of the folders' counters.json (merge); null when none has one.
nlohmann::json merged_counter_declarations(const std::vector<std::filesystem::path>& dirs);

}  // namespace dpgpu
