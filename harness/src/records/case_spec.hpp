// case_spec.hpp — one case of a plan: how to build its instance, which solver with which
// parameters, how to measure it, and what was decided before it runs. Its id is computed
// once, by the planner. The worker child receives it as JSON and needs nothing else.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpgpu/context.hpp"
#include "dpgpu/problem.hpp"
#include "dpgpu/value.hpp"
#include "records/measure_settings.hpp"

namespace dpgpu {

// What the planner decided: run it, or record it without running.
enum class Decision {
  Run,
  Skip,    // a cap (`max:`), an unavailable solver, no GPU: a `skipped` row, not a failure
  Refuse,  // it cannot fit in memory (planned): an `oom` row, not a failure
};
const char* to_string(Decision d);

// How to build the instance again, in this process or in the worker child.
struct InstanceRecipe {
  std::string generator;  // empty: read from files
  ValueMap params;        // generator parameters, resolved with defaults
  std::uint64_t seed = 0;
  std::vector<std::string> files;  // file source: absolute paths
  // Each file's content hash (hash_text) when the plan read it: a file changed since is
  // refused when the case builds its instance, naming the file (empty: not checked).
  std::vector<std::string> file_hashes;
  std::string select;
  std::size_t loaded_index = 0;  // which of the instances the files hold
  // The optimum the planner found by the problem's reference solver for an instance whose
  // source knows none (ProblemEntry::reference_optimum), so the worker need not again.
  std::optional<Objective> optimum;
};

// Asks the worker to profile the case itself, in one extra solve after its timed ones (the
// CUPTI backend, profiler_cupti.hpp). Set only on the copy that runs, never in the plan.
struct ProfileRequest {
  std::vector<std::string> names;    // as the experiment wrote them (paper names or raw)
  std::vector<std::string> metrics;  // the Hopper metrics they stand for, one per name
  std::int64_t max_launches = 20;
  bool flush_caches =
      true;  // empty the L2 and instruction caches before each profiled launch (all)
};

struct CaseSpec {
  std::string id;  // "<instance label>[/<name in file>]/<solver label>"
  std::string experiment, problem;
  std::size_t part = 0;

  // The instance: how to build it and what the rows say of it.
  InstanceRecipe recipe;
  std::string instance_key;   // the id's instance part: solvers of one instance must agree
  std::string instance_name;  // the `instance` column
  bool has_seed = false;
  ValueMap instance_params, dims;
  double work = 0;           // the instance's (P::work), unless work_counter names a counter
  std::string work_counter;  // non-empty: each run's work is this counter (search: "nodes")
  std::optional<Objective> known_optimum;

  // The solver.
  std::string solver;
  Backend backend = Backend::Cpu;
  ValueMap solver_params;  // resolved with defaults

  // How to measure it (the profiler's copy sets repetitions 1, warmup 0, series false).
  MeasureSettings measure;
  bool isolate = false;  // in a worker child
  bool verbose = false;
  std::optional<ProfileRequest> profile;

  Decision decision = Decision::Run;
  std::string reason;  // why not run
  // The planner built the instance here (false: refused for this host's memory, so its
  // sizes and work are unknown here). Not recorded: a fact of the planning host.
  bool instance_built = true;
};

// GPUs a case uses: a GPU solver's integer parameter `gpus` (the multi-GPU contract: logical
// GPU i on device i % visible devices), 1 without it, 0 for a CPU solver.
int cards_wanted(const CaseSpec& c);
int cards_wanted(Backend backend, const ValueMap& solver_params);

nlohmann::json to_json(const CaseSpec& c);
CaseSpec case_spec_from_json(const nlohmann::json& j);

nlohmann::json to_json(const ValueMap& m);
ValueMap value_map_from_json(const nlohmann::json& j);

}  // namespace dpgpu
