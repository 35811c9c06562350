// slurm_command.hpp — `dpgpu slurm FILE --shards N`: run one experiment as a Slurm job
// array, the way Slurm expects (no scheduler of dpgpu's own). It checks the experiment (as
// `dpgpu check` does) and every option before writing anything, pins a copy of the file,
// writes the array and merge scripts (slurm_script.hpp), prints the sbatch commands, and
// with --submit submits both: the array, then the merge with --dependency=afterany on it.
//
// Why afterany, not afterok: with afterok one shard that fails leaves the merge pending
// forever (DependencyNeverSatisfied) and says nothing. With afterany the merge job always
// runs and reports: it merges when every task recorded an exit code of 0 or 1 (1 means a
// case failed or timed out, which is a result in its rows, not a lost shard), and otherwise
// names the unfinished shards and the sbatch line that reruns just them.
//
// GPUs and per-GPU workers: --gres gpu:K (or --gpus-per-task K) gives each array task K
// GPUs, which Slurm names in CUDA_VISIBLE_DEVICES. `--gpus all` is handed to every task's
// `dpgpu run`, which then starts one worker per GPU of the task (each worker sees only its
// own card) pulling the shard's cases from one queue: N tasks x K GPUs run at once. Without
// --gpus each task runs one case at a time on its first GPU, so K > 1 would idle. Indices in
// `--gpus 0,1` count within the task's GPUs. CPU cases run on the task's --cpus-per-task
// cores (OMP_NUM_THREADS is set to them when unset).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "scale/slurm_options.hpp"

namespace dpgpu {

struct SlurmOptions {
  std::filesystem::path file;
  int shards = 0;
  std::filesystem::path out;  // the job's folder; default results/<name>
  std::string run_gpus;       // `dpgpu run --gpus` in each task
  int cpu_workers = 0;  // `dpgpu run --cpu-workers` in each task (needs run_gpus); 0: run's default
  std::uint64_t max_cases = 1'000'000;
  SlurmResources resources;
  bool submit = false;
};

// Exit code: 0 written (and submitted); 1 sbatch refused the merge job after the array was
// queued (the command to queue it by hand is printed). InputError (exit 2) for bad input or
// options, or an array sbatch refused, before anything is queued.
int slurm_command(const SlurmOptions& options);

}  // namespace dpgpu
