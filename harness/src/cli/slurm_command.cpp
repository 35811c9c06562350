// slurm_command.cpp — `dpgpu slurm FILE --shards N`: its options; the job array is written
// (and submitted) by scale/slurm_command.hpp.
#include <memory>

#include "cli/command.hpp"
#include "scale/slurm_command.hpp"

namespace dpgpu::cli {

Command add_slurm_command(CLI::App& app) {
  auto o = std::make_shared<SlurmOptions>();
  SlurmResources& r = o->resources;
  auto* slurm = app.add_subcommand(
      "slurm",
      "write (and with --submit, submit) a Slurm job array: one task per shard, then a merge");
  slurm->add_option("file", o->file, "experiment YAML file")->required();
  slurm
      ->add_option("--shards", o->shards,
                   "N array tasks, each `dpgpu run FILE --shard K/N --resume`")
      ->required();
  slurm->add_option("--out", o->out,
                    "the job's folder: shard-K-of-N/, merged/, slurm/ (default results/<name>)");
  slurm->add_option("--partition", r.partition, "sbatch --partition");
  slurm->add_option("--account", r.account, "sbatch --account");
  slurm->add_option("--time", r.time, "sbatch --time per task: minutes, HH:MM:SS, D-HH:MM ...");
  slurm->add_option("--gres", r.gres, "sbatch --gres per task, e.g. gpu:1 or gpu:a100:2");
  slurm->add_option("--gpus-per-task", r.gpus_per_task, "sbatch --gpus-per-task ([type:]count)");
  // 0 is no request to sbatch: refused (exit 2), never dropped silently.
  slurm->add_option("--cpus-per-task", r.cpus_per_task, "sbatch --cpus-per-task")
      ->check(positive_whole_number());
  slurm
      ->add_option("--max-running", r.max_running,
                   "at most this many tasks at once (--array=0-(N-1)%M)")
      ->check(positive_whole_number());
  slurm->add_option("--gpus", o->run_gpus,
                    "dpgpu run --gpus in each task: all, or indices within the task's GPUs");
  slurm
      ->add_option("--cpu-workers", o->cpu_workers,
                   "dpgpu run --cpu-workers in each task (with --gpus)")
      ->check(CLI::Range(1, 1024));
  slurm->add_option("--max-cases", o->max_cases, "refuse sweeps expanding to more cases than this")
      ->check(positive_whole_number());
  slurm->add_flag("--submit", o->submit,
                  "submit the array, then the merge after it (sbatch --parsable)");
  return {slurm, [o] { return slurm_command(*o); }};
}

}  // namespace dpgpu::cli
