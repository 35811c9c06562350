#include "scale/slurm_script.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "dpgpu/error.hpp"
#include "plan/shard.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

fs::path SlurmJob::shard_dir(int k) const { return base / Shard{k, shards}.folder_name(); }

std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) ||
           std::string_view("/._-+=:,@%").find(char(c)) != std::string_view::npos;
  });
  if (safe) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void check_sbatch_path(const fs::path& path, const std::string& what) {
  const std::string s = path.string();
  if (s.find_first_of(" \t\n\"'%#\\") != std::string::npos)
    throw InputError(fmt::format(
        "{} '{}': Slurm's #SBATCH lines cannot hold a path with spaces, quotes, '%', '#' or "
        "'\\'; choose another",
        what, s));
}

namespace {

std::string q(const fs::path& p) { return shell_quote(p.string()); }

// The #SBATCH lines both jobs share: where they run and on whose account.
std::string placement_lines(const SlurmJob& job) {
  const SlurmResources& r = job.resources;
  std::string s = fmt::format("#SBATCH --chdir={}\n", job.workdir.string());
  if (!r.partition.empty()) s += fmt::format("#SBATCH --partition={}\n", r.partition);
  if (!r.account.empty()) s += fmt::format("#SBATCH --account={}\n", r.account);
  if (!r.time.empty()) s += fmt::format("#SBATCH --time={}\n", r.time);
  return s;
}

// How GPUs reach the cases; in the script where a task asks for GPUs.
constexpr const char* kGpuNote = R"(#
# GPUs: Slurm gives each task the GPUs asked for above and lists them in
# CUDA_VISIBLE_DEVICES. Without `--gpus`, `dpgpu run` runs one case at a time on the first
# of them. With `--gpus all` it starts one worker per GPU of the task (each worker sees only
# its own card) pulling the shard's cases from one queue, so N tasks x K GPUs run at once;
# indices in `--gpus 0,1` count within the task's GPUs, not the node's. CPU cases run on the
# task's cores (--cpus-per-task) beside the GPU workers.
)";

}  // namespace

std::string array_script_text(const SlurmJob& job) {
  const SlurmResources& r = job.resources;
  const fs::path logs = job.slurm_dir() / "logs";
  std::string s = fmt::format(
      "#!/bin/bash\n"
      "# dpgpu slurm: experiment '{name}' in {n} shards, one array task each (written by dpgpu "
      "slurm).\n"
      "# Submit with {submit}, which also queues the merge.\n"
      "# Rerun some shards (each continues where it stopped): sbatch --array=1,3 {self}\n"
      "#SBATCH --job-name=dpgpu-{name}\n"
      "#SBATCH --array=0-{last}{throttle}\n"
      "#SBATCH --requeue\n"
      "#SBATCH --open-mode=append\n"
      "#SBATCH --output={logs}/shard-%a-of-{n}.out\n"
      "#SBATCH --error={logs}/shard-%a-of-{n}.err\n",
      fmt::arg("name", job.name), fmt::arg("n", job.shards), fmt::arg("last", job.shards - 1),
      fmt::arg("throttle", r.max_running > 0 ? fmt::format("%{}", r.max_running) : ""),
      fmt::arg("submit", job.submit_script().string()),
      fmt::arg("self", job.array_script().string()), fmt::arg("logs", logs.string()));
  s += placement_lines(job);
  if (!r.gres.empty()) s += fmt::format("#SBATCH --gres={}\n", r.gres);
  if (!r.gpus_per_task.empty()) s += fmt::format("#SBATCH --gpus-per-task={}\n", r.gpus_per_task);
  if (r.cpus_per_task > 0) s += fmt::format("#SBATCH --cpus-per-task={}\n", r.cpus_per_task);
  if (gpus_per_task(r) > 0) s += kGpuNote;

  std::string run = fmt::format("{} run {} --shard \"$k/$n\" --out \"$out\" --resume", q(job.dpgpu),
                                q(job.experiment));
  if (!job.run_gpus.empty()) run += " --gpus " + shell_quote(job.run_gpus);
  if (job.cpu_workers > 0) run += fmt::format(" --cpu-workers {}", job.cpu_workers);
  if (job.max_cases > 0) run += fmt::format(" --max-cases {}", job.max_cases);
  s += fmt::format(R"SH(
set -u
k=${{SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is an array job, one task per shard}}
n={n}
out={base}/shard-$k-of-$n
status={slurm}/status/shard-$k-of-$n.exit
mkdir -p {slurm}/status
# Solvers whose threads=0 take OpenMP's default: the task's CPUs, not the whole node's.
if [ -n "${{SLURM_CPUS_PER_TASK:-}}" ] && [ -z "${{OMP_NUM_THREADS:-}}" ]; then
  export OMP_NUM_THREADS="$SLURM_CPUS_PER_TASK"
fi
echo "dpgpu slurm: shard $k/$n on $(hostname), job ${{SLURM_JOB_ID:-?}} (array ${{SLURM_ARRAY_JOB_ID:-?}}, restart ${{SLURM_RESTART_COUNT:-0}}), CUDA_VISIBLE_DEVICES=${{CUDA_VISIBLE_DEVICES:-unset}}, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
rm -f "$status"
# --resume: a requeued or rerun task runs only the cases its folder does not hold yet.
{run}
rc=$?
# 0: every case ok or skipped; 1: every case recorded, some failed (their rows say why).
# Any other code (2 bad input, 3 internal error, 130/143 stopped) leaves the shard unfinished;
# a task killed outright writes nothing here. The merge job reads these files.
echo "$rc" > "$status.tmp" && mv "$status.tmp" "$status"
exit "$rc"
)SH",
                   fmt::arg("n", job.shards), fmt::arg("base", q(job.base)),
                   fmt::arg("slurm", q(job.slurm_dir())), fmt::arg("run", run));
  return s;
}

std::string merge_script_text(const SlurmJob& job) {
  std::string s = fmt::format(
      "#!/bin/bash\n"
      "# dpgpu slurm: merges the {n} shards of experiment '{name}' into {merged}.\n"
      "# Queued with --dependency=afterany:<array job id>, so it runs however the shards ended:\n"
      "# it merges when every shard finished, else names the unfinished ones and how to rerun "
      "them.\n"
      "#SBATCH --job-name=dpgpu-{name}-merge\n"
      "#SBATCH --open-mode=append\n"
      "#SBATCH --output={logs}/merge.out\n",
      fmt::arg("n", job.shards), fmt::arg("name", job.name),
      fmt::arg("merged", job.merged_dir().string()),
      fmt::arg("logs", (job.slurm_dir() / "logs").string()));
  s += placement_lines(job);
  s += fmt::format(R"SH(
set -u
n={n}
base={base}
slurm={slurm}
unfinished=()
shards=()
for ((k = 0; k < n; k++)); do
  shards+=("$base/shard-$k-of-$n")
  rc=$(cat "$slurm/status/shard-$k-of-$n.exit" 2>/dev/null || true)
  case "$rc" in
    0 | 1) ;;
    *)
      unfinished+=("$k")
      why=${{rc:+exit code $rc}}
      echo "shard $k/$n did not finish (${{why:-no exit code: not run, killed or out of time}}); see $slurm/logs/shard-$k-of-$n.err" >&2
      ;;
  esac
done
if [ ${{#unfinished[@]}} -gt 0 ]; then
  list=$(IFS=,; echo "${{unfinished[*]}}")
  echo "dpgpu slurm: nothing merged; rerun shards $list (each continues where it stopped), then merge:" >&2
  echo "  sbatch --dependency=afterany:\$(sbatch --parsable --array=$list $slurm/array.sbatch | cut -d';' -f1) $slurm/merge.sbatch" >&2
  exit 1
fi
echo "dpgpu slurm: merging $n shards into {merged_q}, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
# --fresh: a merge run again (after rerunning shards) moves the earlier one to previous-<time>/.
exec {dpgpu} merge "${{shards[@]}}" --into {merged_q} --fresh
)SH",
                   fmt::arg("n", job.shards), fmt::arg("base", q(job.base)),
                   fmt::arg("slurm", q(job.slurm_dir())), fmt::arg("merged_q", q(job.merged_dir())),
                   fmt::arg("dpgpu", q(job.dpgpu)));
  return s;
}

std::vector<std::string> array_sbatch_command(const SlurmJob& job) {
  return {"sbatch", "--parsable", job.array_script().string()};
}

std::vector<std::string> merge_sbatch_command(const SlurmJob& job,
                                              const std::string& array_job_id) {
  return {"sbatch", "--parsable", "--dependency=afterany:" + array_job_id,
          job.merge_script().string()};
}

std::string submit_script_text(const SlurmJob& job) {
  return fmt::format(R"SH(#!/bin/sh
# Submits the array of {n} shards, then the merge after it (afterany: it runs however the
# shards end, and says which did not finish). Written by dpgpu slurm.
set -e
array=$(sbatch --parsable {array} | cut -d';' -f1)
merge=$(sbatch --parsable --dependency=afterany:"$array" {merge} | cut -d';' -f1)
echo "array job $array ({n} tasks), merge job $merge; logs in {logs}"
)SH",
                     fmt::arg("n", job.shards), fmt::arg("array", q(job.array_script())),
                     fmt::arg("merge", q(job.merge_script())),
                     fmt::arg("logs", q(job.slurm_dir() / "logs")));
}

}  // namespace dpgpu
