// runner.hpp — `dpgpu run` and `dpgpu check`: an experiment file in, validated and measured
// results out (runs.csv, summary.csv, benchmark.json, context.json, experiment.yaml).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace dpgpu {

struct RunOptions {
  std::filesystem::path out;       // default: results/<experiment name>
  std::string filter;              // ECMAScript regex searched in case ids
  std::optional<int> repetitions;  // overrides the file's
  bool resume = false;             // skip cases already in runs.csv
  bool dry_run = false;            // print the cases and what would happen; write nothing
  bool verbose = false;
  // Profiler metrics for GPU cases: on when the file has a `profile:` section or with
  // --profile (the file's metrics, else gld_efficiency, warp_execution_efficiency, ipc).
  bool profile = false;
  bool no_profile = false;
};

// Returns the process exit code: 0 when every case ran ok (or was skipped), 1 when any was
// invalid or failed. Throws InputError for bad input before anything is written.
int run_experiment(const std::filesystem::path& file, const RunOptions& options);

// Validates the file, reads every instance, prints the expanded case list. Exit code.
int check_experiment(const std::filesystem::path& file);

}  // namespace dpgpu
