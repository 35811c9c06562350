// run_command.cpp — `dpgpu run FILE`: its options; runner.cpp's run_experiment runs it
// (--set changes the parsed file in memory: experiment_override.hpp).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/runner.hpp"
#include "dpgpu/error.hpp"

namespace dpgpu::cli {

namespace {

struct RunArgs {
  RunOptions opt;
  std::string file;
  int repetitions = 0;
  CLI::Option* out = nullptr;
};

int run(RunArgs& a) {
  if (a.repetitions > 0) a.opt.repetitions = a.repetitions;
  if (a.out->count() > 0 && a.opt.out.empty())
    throw InputError(
        "--out '': an empty folder name; name a folder, or leave --out out for "
        "results/<experiment name>");
  return run_experiment(a.file, a.opt);
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  RunOptions& o = a->opt;
  auto* run_cmd = app.add_subcommand("run", "run an experiment file and write its results");
  run_cmd->add_option("file", a->file, "experiment YAML file")->required();
  a->out = run_cmd->add_option("--out", o.out, "results folder (default results/<name>)");
  run_cmd->add_option("--filter", o.filter, "only cases whose id matches this regular expression");
  run_cmd
      ->add_option("--repetitions", a->repetitions,
                   "counted repetitions per case (overrides the file)")
      ->check(positive_whole_number());
  run_cmd->add_flag(
      "--resume", o.resume,
      "continue the same experiment in its folder: run only the cases not yet recorded");
  run_cmd->add_flag("--fresh", o.fresh,
                    "move the folder's old results to previous-<time>/ and start over");
  run_cmd
      ->add_option("--max-cases", o.max_cases,
                   "refuse sweeps expanding to more cases than this (default 1000000)")
      ->check(positive_whole_number());
  run_cmd
      ->add_option("--set,--axis", o.sets,
                   "PATH=VALUE: change the experiment without editing it, e.g. "
                   "solvers.gpu.wavefront.params.tile_width=[256,512] (repeatable)")
      ->allow_extra_args(false);
  run_cmd->add_option(
      "--shard", o.shard,
      "K/N: run only shard K (0 to N-1) of N; N such runs together run every "
      "case once (default folder results/<name>/shard-K-of-N; join them with dpgpu merge)");
  run_cmd->add_option(
      "--gpus", o.gpus,
      "all | 0,1,3: one worker per GPU, each case in a child that sees only "
      "its card (an index twice: two workers share it); CPU cases beside them on the CPUs left");
  run_cmd
      ->add_option("--cpu-workers", o.cpu_workers,
                   "with --gpus: workers for CPU cases (default 1), each on "
                   "its share of the CPUs left")
      ->check(CLI::Range(1, 1024));
  run_cmd->add_flag(
      "--share-gpus", o.share_gpus,
      "allow a case's solver parameter gpus to exceed the GPUs (with --gpus: the lanes' cards); "
      "its "
      "logical GPUs then share the cards: exact answers, times that are no scaling figure");
  run_cmd->add_flag("--dry-run", o.dry_run, "print the cases and what would happen; write nothing");
  run_cmd->add_flag("-v,--verbose", o.verbose, "solver logs and child-process output");
  run_cmd->add_flag("--profile", o.profile,
                    "profile GPU cases (CUPTI in the worker, or ncu; metrics of the file's "
                    "profile: section, or the paper's three)");
  run_cmd->add_flag("--no-profile", o.no_profile, "skip profiling even when the file asks for it");
  run_cmd->add_option("--lock-clocks", o.lock_clocks,
                      "lock the GPUs' clocks for the run (root): base, max, MHz "
                      "or sm=...,memory=... (replaces the file's clocks:); reset when the run "
                      "ends, however it ends");
  return {run_cmd, [a] { return run(*a); }};
}

}  // namespace dpgpu::cli
