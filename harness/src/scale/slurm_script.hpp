// slurm_script.hpp — the text `dpgpu slurm` writes: an sbatch array script (one task per
// shard, each `dpgpu run FILE --shard K/N --resume` into its own folder) and a merge script
// submitted after the array (`--dependency=afterany:<array job id>`). Pure text from a
// SlurmJob, so it is tested without Slurm; slurm_command.cpp checks, writes and submits.
//
// Folder of one job (`base`, default results/<name>, absolute):
//   shard-K-of-N/        one results folder per array task (what `dpgpu run --shard` writes)
//   merged/              `dpgpu merge` of every shard: what one unsharded run would have written
//   slurm/array.sbatch   slurm/merge.sbatch   slurm/submit.sh   slurm/<experiment file>
//   slurm/logs/          shard-K-of-N.out/.err per task (appended across requeues), merge.out
//   slurm/status/        shard-K-of-N.exit: the exit code of the task's last `dpgpu run`
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "scale/slurm_options.hpp"

namespace dpgpu {

struct SlurmJob {
  std::string name;                  // the experiment's name (job names)
  int shards = 1;                    // N: array tasks 0 … N-1
  std::filesystem::path dpgpu;       // the binary the tasks run (absolute)
  std::filesystem::path experiment;  // the pinned copy under slurm/ (absolute)
  std::filesystem::path base;        // the job's folder (absolute, above)
  std::filesystem::path workdir;     // where the tasks start (--chdir)
  std::string run_gpus;              // `dpgpu run --gpus` inside each task; empty: one GPU
  int cpu_workers = 0;               // `dpgpu run --cpu-workers` (with run_gpus); 0: run's default
  std::uint64_t max_cases = 0;       // `dpgpu run --max-cases`; 0: dpgpu's default
  SlurmResources resources;

  std::filesystem::path slurm_dir() const { return base / "slurm"; }
  std::filesystem::path shard_dir(int k) const;  // base/shard-K-of-N
  std::filesystem::path merged_dir() const { return base / "merged"; }
  std::filesystem::path array_script() const { return slurm_dir() / "array.sbatch"; }
  std::filesystem::path merge_script() const { return slurm_dir() / "merge.sbatch"; }
  std::filesystem::path submit_script() const { return slurm_dir() / "submit.sh"; }
};

// A word for a POSIX shell: as is when it is safe, else in single quotes.
std::string shell_quote(const std::string& word);

// Paths that go on #SBATCH lines (logs, --chdir) must hold no space, quote, '%' or '#';
// sbatch would split or expand them. InputError naming the path, what it is (`what`: "the
// job's folder (--out)") and that another must be chosen.
void check_sbatch_path(const std::filesystem::path& path, const std::string& what);

std::string array_script_text(const SlurmJob& job);
std::string merge_script_text(const SlurmJob& job);

// The commands that submit both jobs: argv of the array's sbatch, and of the merge's once
// the array's job id is known. submit_script_text is the same as a shell script.
std::vector<std::string> array_sbatch_command(const SlurmJob& job);
std::vector<std::string> merge_sbatch_command(const SlurmJob& job, const std::string& array_job_id);
std::string submit_script_text(const SlurmJob& job);

}  // namespace dpgpu
