#include "scale/slurm_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <iostream>
#include <vector>

#include "records/csv_table.hpp"  // write_file_atomically
#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "device/host_info.hpp"
#include "scale/pinned_experiment.hpp"
#include "plan/plan.hpp"
#include "plan/shard.hpp"
#include "scale/slurm_script.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

struct Captured {
  int status = -1;  // exit code; 127 when the program could not be started
  std::string out;  // standard output (standard error goes to ours)
};

Captured run_capturing_stdout(const std::vector<std::string>& args) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    execvp(argv[0], argv.data());
    std::perror(argv[0]);
    _exit(127);
  }
  close(fd[1]);
  Captured c;
  std::array<char, 4096> buf;
  ssize_t n;
  while ((n = read(fd[0], buf.data(), buf.size())) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) c.out.append(buf.data(), std::size_t(n));
  close(fd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  c.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return c;
}

std::string command_line(const std::vector<std::string>& args) {
  std::vector<std::string> quoted;
  for (const auto& a : args) quoted.push_back(shell_quote(a));
  return fmt::format("{}", fmt::join(quoted, " "));
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string dirs = path;
  std::size_t start = 0;
  while (start <= dirs.size()) {
    auto colon = dirs.find(':', start);
    fs::path dir =
        dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (access((dir / program).c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return false;
}

void write_executable(const fs::path& path, const std::string& text) {
  write_file_atomically(path, text);
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
}

// The pinned copy under slurm/; refuses a folder that holds another experiment's job, so
// one folder's shards always come from one plan.
fs::path pin_experiment(const SlurmJob& job, const fs::path& original, const std::string& text) {
  const fs::path copy = job.slurm_dir() / original.filename();
  if (fs::exists(job.slurm_dir()))
    for (const auto& entry : fs::directory_iterator(job.slurm_dir())) {
      const fs::path p = entry.path();
      if (p.extension() != ".yaml" && p.extension() != ".yml") continue;
      if (p != copy || read_whole_file(p) != text)
        throw InputError(
            fmt::format("{} holds the Slurm job of another experiment, or of another version of "
                        "this one ({}): their shards would not merge; use another --out, or remove "
                        "that folder",
                        job.base.string(), p.string()));
    }
  fs::create_directories(job.slurm_dir());
  if (!fs::exists(copy)) write_file_atomically(copy, text);
  return copy;
}

// Everything the user can get wrong in the options, named before anything is written; the
// GPUs each task asks for.
int check_options(const SlurmOptions& opt) {
  if (opt.shards < 1) throw InputError(fmt::format("--shards {}: must be 1 or more", opt.shards));
  const int task_gpus = check_slurm_resources(opt.resources);
  check_run_gpus(opt.run_gpus, task_gpus);
  if (opt.cpu_workers > 0 && opt.run_gpus.empty())
    throw InputError(fmt::format(
        "--cpu-workers {}: it goes with --gpus (workers for CPU cases beside the GPU workers)",
        opt.cpu_workers));
  return task_gpus;
}

SlurmJob job_of(const SlurmOptions& opt, const RunPlan& plan) {
  SlurmJob job;
  job.name = plan.name();
  job.shards = opt.shards;
  job.dpgpu = fs::read_symlink("/proc/self/exe");
  job.base = fs::absolute(opt.out.empty() ? fs::path("results") / plan.name() : opt.out)
                 .lexically_normal();
  job.workdir = fs::current_path();
  job.run_gpus = opt.run_gpus;
  job.cpu_workers = opt.cpu_workers;
  job.max_cases = opt.max_cases == kDefaultMaxCases ? 0 : opt.max_cases;
  job.resources = opt.resources;
  check_sbatch_path(job.base, "the job's folder (--out)");
  check_sbatch_path(job.workdir,
                    "the working folder (where dpgpu slurm runs; the tasks start there)");
  return job;
}

// The pinned experiment (job.experiment), then the array, merge and submit scripts.
void write_job(SlurmJob& job, const fs::path& file, const PlanOptions& plan_options,
               const RunPlan& plan) {
  const std::string pinned_text = pinned_experiment_text(file);
  const bool pinned_before = fs::exists(job.slurm_dir() / file.filename());
  job.experiment = pin_experiment(job, file, pinned_text);
  // The copy must be the same plan (same case ids, same measuring), or the shards would not
  // be the original's.
  if (make_plan(job.experiment, plan_options).fingerprint_hash != plan.fingerprint_hash) {
    if (!pinned_before) fs::remove(job.experiment);
    throw std::runtime_error(fmt::format("the copy {} plans other cases than {}",
                                         job.experiment.string(), file.string()));
  }
  fs::create_directories(job.slurm_dir() / "logs");
  fs::create_directories(job.slurm_dir() / "status");
  write_executable(job.array_script(), array_script_text(job));
  write_executable(job.merge_script(), merge_script_text(job));
  write_executable(job.submit_script(), submit_script_text(job));
}

// The job in words: its shards and their spread, its files, notes, the submit commands.
void print_job(const SlurmJob& job, const RunPlan& plan, int task_gpus, const SlurmOptions& opt) {
  std::size_t gpu_cases = 0;
  for (const CaseSpec& c : plan.cases) gpu_cases += c.backend == Backend::Gpu;
  // The partition every task computes (shard.hpp), shown as its spread.
  const std::vector<ShardLoad> load =
      shard_loads(plan.cases, shard_of_cases(plan.cases, opt.shards), opt.shards);
  std::cout << fmt::format(
      "dpgpu slurm: experiment '{}', {} cases in {} shards (array tasks 0-{}), {}\n", job.name,
      plan.cases.size(), job.shards, job.shards - 1,
      task_gpus > 0 ? fmt::format("{} GPU{} per task", task_gpus, task_gpus == 1 ? "" : "s")
                    : "no GPU");
  const auto [fewest, most] = std::minmax_element(
      load.begin(), load.end(), [](auto& a, auto& b) { return a.cases < b.cases; });
  const auto [least, largest] = std::minmax_element(
      load.begin(), load.end(), [](auto& a, auto& b) { return a.share < b.share; });
  std::cout << fmt::format(
      "  {}-{} cases per shard, estimated work per shard {:.1f}-{:.1f} % of the total\n",
      fewest->cases, most->cases, 100 * least->share, 100 * largest->share);
  std::cout << fmt::format(
      "  experiment  {} (pinned copy)\n  array       {}\n  merge       {} -> {}\n",
      job.experiment.string(), job.array_script().string(), job.merge_script().string(),
      job.merged_dir().string());
  if (gpu_cases > 0 && task_gpus == 0)
    std::cout << fmt::format(
        "  note: {} GPU case{} will be recorded skipped: the tasks ask for no GPU (--gres gpu:1)\n",
        gpu_cases, gpu_cases == 1 ? "" : "s");
  if (opt.shards > 1001)
    std::cout << "  note: array task ids above 1000 need a cluster whose MaxArraySize is larger "
                 "than Slurm's "
                 "default 1001\n";
  std::string merge_line = command_line(merge_sbatch_command(job, "ARRAY"));
  merge_line.replace(merge_line.find("afterany:ARRAY"), 14,
                     "afterany:$array");  // a shell variable, unquoted
  std::cout << fmt::format("submit with:\n  array=$({} | cut -d';' -f1)\n  {}\n(the same: sh {})\n",
                           command_line(array_sbatch_command(job)), merge_line,
                           job.submit_script().string());
}

// --submit: the array job, then the merge job after it; their ids into slurm/jobs.txt.
int submit(const SlurmJob& job) {
  std::cout.flush();
  if (!on_path("sbatch"))
    throw InputError(
        "--submit: sbatch is not on PATH (not a Slurm login node?); the scripts are written, "
        "submit "
        "them where sbatch runs with the lines above");
  const Captured array = run_capturing_stdout(array_sbatch_command(job));
  if (array.status != 0)
    throw InputError(fmt::format(
        "sbatch refused the array job (exit {}; its message is above); nothing is queued",
        array.status));
  const std::string array_id = parse_sbatch_job_id(array.out);
  const std::vector<std::string> merge_now = merge_sbatch_command(job, array_id);
  const Captured merge = run_capturing_stdout(merge_now);
  if (merge.status != 0) {
    std::cerr << fmt::format(
        "sbatch refused the merge job (exit {}); the array {} is queued. Queue the merge with:\n  "
        "{}\n",
        merge.status, array_id, command_line(merge_now));
    return 1;
  }
  const std::string merge_id = parse_sbatch_job_id(merge.out);
  std::ofstream(job.slurm_dir() / "jobs.txt", std::ios::app)
      << fmt::format("{} array {} merge {}\n", now_iso8601(), array_id, merge_id);
  std::cout << fmt::format("submitted: array job {} ({} tasks), merge job {}\n", array_id,
                           job.shards, merge_id);
  return 0;
}

}  // namespace

int slurm_command(const SlurmOptions& opt) {
  const int task_gpus = check_options(opt);
  PlanOptions plan_options;
  plan_options.max_cases = opt.max_cases;
  const RunPlan plan = make_plan(opt.file, plan_options);  // what `dpgpu check` checks
  if (std::size_t(opt.shards) > plan.cases.size())
    throw InputError(
        fmt::format("--shards {}: the experiment has {} case{}; give at most that many shards",
                    opt.shards, plan.cases.size(), plan.cases.size() == 1 ? "" : "s"));
  SlurmJob job = job_of(opt, plan);
  write_job(job, opt.file, plan_options, plan);
  print_job(job, plan, task_gpus, opt);
  return opt.submit ? submit(job) : 0;
}

}  // namespace dpgpu
