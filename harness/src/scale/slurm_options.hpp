// slurm_options.hpp — what `dpgpu slurm` asks of Slurm, checked before anything is written:
// each value in the form sbatch takes, so a typo is exit 2 here, not a job rejected (or
// pending forever) on the cluster.
#pragma once
#include <string>

namespace dpgpu {

struct SlurmResources {
  std::string partition;      // --partition (a name or a comma-separated list)
  std::string account;        // --account
  std::string time;           // --time: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S
  std::string gres;           // --gres per task, e.g. gpu:1, gpu:a100:2, gpu:2,shard:1
  std::string gpus_per_task;  // --gpus-per-task: [type:]count (select/cons_tres clusters)
  int cpus_per_task = 0;      // --cpus-per-task; 0: the cluster's default
  int max_running = 0;        // array throttle (--array=0-(N-1)%M); 0: no limit
};

// Each throws InputError naming the option, the value and the accepted form.
void check_slurm_time(const std::string& time);
void check_slurm_name(const std::string& option, const std::string& value);  // partition, account

// The GPUs one task gets: from --gres (its gpu entries) or --gpus-per-task; 0 when neither
// asks for GPUs. Validates both and refuses both at once (Slurm counts them twice).
int gpus_per_task(const SlurmResources& r);

// Validates everything in r (the forms above, counts ≥ 1); returns gpus_per_task(r).
int check_slurm_resources(const SlurmResources& r);

// `dpgpu run --gpus` inside each task: "all" or a comma-separated list of GPU indices,
// which count within the task's own GPUs (CUDA_VISIBLE_DEVICES that Slurm sets), so each
// must be below task_gpus. Refused when the task gets no GPU.
void check_run_gpus(const std::string& spec, int task_gpus);

// The job id in `sbatch --parsable` output ("123" or "123;cluster"); InputError otherwise.
std::string parse_sbatch_job_id(const std::string& output);

}  // namespace dpgpu
