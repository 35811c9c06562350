// runner.hpp — `dpgpu run` and `dpgpu check`: an experiment file in, validated and measured
// results out (runs.csv, summary.csv, benchmark.json, context.json, experiment.yaml), in
// three steps: plan (plan.hpp), run (run_case.hpp), report (reporter.hpp), into a results
// folder that keeps every finished case (results_folder.hpp).
//
// Exit codes: 0 every case ok or skipped (planned `oom` refusals included); 1 some case
// failed, timed out or was invalid; 2 bad input or command line, nothing written; 3 internal
// error; 130 / 143 stopped by SIGINT / SIGTERM after committing the case in progress.
#pragma once
#include <filesystem>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpgpu {

struct RunOptions {
  std::filesystem::path out;            // default: results/<experiment name>
  std::string filter;                   // ECMAScript regex searched in case ids
  std::optional<int> repetitions;       // overrides the file's
  bool resume = false;                  // keep committed cases of the same plan, run the rest
  bool fresh = false;                   // move the folder's old results to previous-<time>/ first
  std::uint64_t max_cases = 1'000'000;  // sweeps expanding to more cases are refused
  std::string shard;  // "K/N": only shard K of N (default folder results/<name>/shard-K-of-N)
  std::string
      gpus;  // "all" or "0,1,3": one worker lane per GPU (worker_pool.hpp); empty: one process
  int cpu_workers = 1;      // with gpus: lanes for CPU cases
  bool share_gpus = false;  // a case's `gpus` may exceed the cards (PlanOptions::share_gpus)
  bool dry_run = false;     // print the cases and what would happen; write nothing
  bool verbose = false;
  // Profiler metrics for GPU cases: on when the file has a `profile:` section or with
  // --profile (the file's metrics, else gld_efficiency, warp_execution_efficiency, ipc).
  bool profile = false;
  bool no_profile = false;
  // --lock-clocks: replaces the file's clocks: ("base", "sm=1500,memory=max"; clock_request.hpp).
  std::string lock_clocks;
  std::vector<std::string> sets;  // --set PATH=VALUE, applied to the parsed file in memory
};

// Returns the process exit code (above). Throws InputError for bad input before anything is
// written.
int run_experiment(const std::filesystem::path& file, const RunOptions& options);

// Validates the file, reads every instance, prints the expanded case list (with `shards` > 0:
// each case's shard of that many, and every shard's cases and estimated cost). Exit code.
int check_experiment(const std::filesystem::path& file, std::uint64_t max_cases = 1'000'000,
                     int shards = 0, bool share_gpus = false,
                     const std::vector<std::string>& sets = {});

// The command that continues a stopped run: `dpgpu run FILE --set ... --out DIR --resume`
// with every option the plan depends on, each word shell-quoted.
std::string resume_command(const std::filesystem::path& file, const RunOptions& options,
                           const std::filesystem::path& out, const std::string& shard);

}  // namespace dpgpu
