// experiment.hpp — an experiment file (YAML), checked against the registry, and its
// expansion into instances × solver parameter points. Nothing in it is code.
//
//   name: lcs-fig4a
//   description: ...
//   problem: lcs
//   instances:
//     - generator: planted
//       params: {n: [4096, 16384], alphabet: 4, lcs_fraction: 0.5}   # a list is a sweep axis
//       seeds: [1, 2]                                                  # default [1]
//     - file: data/pair.fa            # or [a.fa, b.fa]; relative to the YAML file
//       select: name                  # optional: one instance of a multi-instance file
//   solvers:
//     - name: gpu.wavefront
//       params: {block: [128, 256]}
//     - name: cpu.full_table
//       max: {n: 20000}               # larger instances: recorded as skipped, not run
//   repetitions: 5                    # at least; more while noisy (max_noise, max_repetitions)
//   warmup: 1
//   max_repetitions: 20
//   max_noise: 0.02                   # relative standard deviation to stop at
//   cold: false                       # flush the L2 cache before each GPU repetition
//   series: false                     # one extra untimed run per case records per-step series
//   timeout_s: 300
//   energy_window_s: 1                # energy over at least 1 s of solves (extra ones if need be)
//   clocks: {sm: base, memory: max}   # locked for the run: max | base | MHz (root)
//   isolate: auto                     # auto (GPU cases in a child process) | always | never
//   profile: {metrics: [gld_efficiency, ipc], max_launches: 20}   # + cache_control, replay
//   plot: ...                         # kept as YAML text for the plot scripts
//   claims: ...                       # statements over the results (claims.hpp; dpgpu verify)
//   tiers: {quick: {set: [...]}}      # dpgpu reproduce's smaller runs (reproduce/tiers.hpp)
//
// Several problems in one results folder (a figure that spans problems, like the seed
// paper's Fig. 5): replace problem/instances/solvers by
//   parts:
//     - {problem: lcs, instances: [...], solvers: [...]}
//     - {problem: knapsack, instances: [...], solvers: [...]}
// Every other key is shared by the parts; case ids stay unique because instance labels
// name their generator.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dpgpu/params.hpp"
#include "dpgpu/problem.hpp"
#include "dpgpu/registry.hpp"
#include "dpgpu/value.hpp"
#include "experiment/claims.hpp"
#include "experiment/clock_request.hpp"
#include "experiment/experiment_override.hpp"
#include "experiment/plot_figure.hpp"
#include "experiment/where.hpp"

namespace dpgpu {

// One sweepable key: a single value is a list of one.
struct Axis {
  std::string key;
  std::vector<Value> values;
  Where where;
};

struct InstanceSource {
  Where where;
  std::string generator;  // empty for a file source
  std::vector<Axis> params;
  std::vector<std::uint64_t> seeds{1};
  FileSource file;  // paths already resolved against the YAML file's folder
};

struct SolverSpec {
  Where where;
  std::string name;
  std::vector<Axis> params;
  std::map<std::string, double> max;       // caps on instance dims (or generator params)
  std::map<std::string, Where> max_where;  // where each cap's key is (a --set flag, or a line)
  // Where a message about these parameters points: the key of the parameter it names first
  // in quotes ('p') among those the file sets, else the solver's entry.
  const Where& where_named(const std::string& message) const;
};

struct ProfileSpec {
  std::vector<std::string> metrics;  // paper names (gld_efficiency, ...) or raw ncu names
  std::vector<Where> metric_where;   // where each is written (plan.cpp checks the names)
  // Launches profiled per case, spread evenly over the run. Through ncu each costs about
  // 85 ms for the paper's three metrics on an H100 (SASS-instrumented metrics, replayed
  // kernel by kernel) after about 2 s of start-up, so 20 keeps a case's profile near 4 s.
  std::int64_t max_launches = 20;
  // cupti: in the worker after the timed solves (profiler_cupti.hpp); ncu: the case once
  // more under Nsight Compute (profiler.hpp). cupti falls back to ncu where it cannot start.
  std::string backend = "cupti";
  // Flush the L2 cache before each profiled launch (all; ncu: before each pass) or not (none).
  std::string cache_control = "all";
  std::string replay = "kernel";  // ncu --replay-mode: kernel | application (backend ncu)
};

// Limits checked when the file is read, so an absurd value is an error with the range,
// never an overflow or an allocation.
constexpr std::int64_t kMaxRepetitions = 1'000'000;   // repetitions, max_repetitions, warmup
constexpr double kMaxTimeoutSeconds = 7 * 24 * 3600;  // timeout_s: one week
constexpr std::int64_t kMaxProfiledLaunches = 1'000'000;

struct Experiment {
  std::filesystem::path path;
  std::string source_text;  // the file as read, copied into the results
  std::string name, description, problem;
  std::size_t part = 0;  // index into the file's `parts` (0 for a file without them)
  std::vector<InstanceSource> instances;
  std::vector<SolverSpec> solvers;
  std::int64_t repetitions = 5;  // counted runs at least
  std::int64_t warmup = 1;
  // Stopping rule (NVBench's habit): after `repetitions`, keep adding runs while the relative
  // standard deviation of the times is above `max_noise`, up to `max_repetitions` and within
  // timeout_s. Without max_noise, exactly `repetitions` runs.
  std::int64_t max_repetitions = 5;
  std::optional<double> max_noise;
  bool cold = false;  // flush the GPU's L2 cache before each GPU repetition
  // One extra, untimed solve per case after the timed ones, in which solvers record their
  // per-step series (Context::series, e.g. the time of each diagonal) into series.csv.
  bool series = false;
  double timeout_s = 300;
  // Energy is read over at least this many seconds of back-to-back solves (measure.cpp).
  double energy_window_s = 1.0;
  ClockRequest clocks;  // locked for the whole run (device/clock_lock.hpp); empty: not
  std::string isolate = "auto";
  std::optional<ProfileSpec> profile;
  std::string plot_yaml;         // the `plot:` section re-emitted as YAML, or empty
  std::vector<PlotFigure> plot;  // its figures, keys checked (plot_section.hpp)
  std::vector<Claim> claims;     // what the results are claimed to show (claims.hpp)
};

// Reads and checks an experiment file against the registry: YAML syntax, unknown keys,
// unknown problem/generator/solver (listing the known ones), every sweep value against its
// parameter schema, types and ranges, unreadable files. Throws InputError whose message
// starts with "FILE:LINE:COLUMN:" and names the key ("--set PATH=VALUE:" for a value an
// override gave). A second YAML document, or nesting past the reader's depth limit, is an
// error naming its line. `overrides` (--set) change the parsed file in memory, in order.
// Every part of the file: one for a file without `parts`.
std::vector<Experiment> parse_experiment_parts(const std::filesystem::path& file,
                                               const std::vector<Override>& overrides = {});
// A single-problem file; a file with several parts is an InputError.
Experiment parse_experiment(const std::filesystem::path& file,
                            const std::vector<Override>& overrides = {});

// One point of an instance source: generator parameters resolved with defaults, and a seed.
struct InstancePoint {
  std::size_t source = 0;  // index into Experiment::instances
  Params params;           // generator parameters (empty for files)
  std::uint64_t seed = 0;  // 0 for files
  std::string label;       // "random[alphabet=4,m=4096,n=4096]#1" or the file names
};

struct SolverPoint {
  std::size_t spec = 0;  // index into Experiment::solvers
  const SolverEntry* solver = nullptr;
  Params params;      // resolved with defaults
  std::string label;  // "gpu.wavefront[block=128]" (swept or given keys only)
};

struct Plan {
  std::vector<InstancePoint> instances;
  std::vector<SolverPoint> solvers;  // every case is one instance × one solver point
};

// Multiplies the axes out, in file order (last axis fastest).
Plan expand(const Experiment& e);

}  // namespace dpgpu
