// dpgpu — the command line: run, check, merge, slurm, list, plot, report, compare.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "cli/runner.hpp"
#include "experiment/experiment_override.hpp"
#include "device/clock_lock.hpp"
#include "device/host_info.hpp"
#include "run/worker_main.hpp"
#include "scale/merge.hpp"
#include "report/plot_command.hpp"
#include "scale/slurm_command.hpp"

namespace {

void print_schema(const dpgpu::Schema& schema, const char* indent) {
  for (auto& p : schema.specs())
    std::cout << fmt::format("{}{:<18} {:<34} default {:<10} {}\n", indent, p.name, p.describe_allowed(),
                             dpgpu::to_string(p.default_value), p.help);
}

void print_solver(const dpgpu::SolverEntry& s) {
  std::cout << fmt::format("  {}/{:<20} {}{}\n", s.problem, s.name, s.help,
                           s.unavailable.empty() ? "" : "  [unavailable: " + s.unavailable + "]");
  print_schema(s.schema, "      ");
}

// `dpgpu list NAME`: one problem (its generators and solvers) or the solvers of that name.
int list_one(const std::string& name) {
  auto& reg = dpgpu::Registry::get();
  if (const auto* p = reg.problem(name)) {
    std::cout << fmt::format("problem {}: {}\ngenerators:\n", p->name, p->help);
    for (auto& g : p->generators) {
      std::cout << fmt::format("  {}/{:<20} {}\n", p->name, g.name, g.help);
      print_schema(g.schema, "      ");
    }
    std::cout << "solvers:\n";
    for (auto* s : reg.solvers(p->name)) print_solver(*s);
    return 0;
  }
  std::vector<std::string> known;
  bool found = false;
  for (auto* s : reg.solvers()) {
    known.push_back(s->name);
    if (s->name == name) {
      if (!found) std::cout << "solvers:\n";
      print_solver(*s);
      found = true;
    }
  }
  if (found) return 0;
  for (auto* p : reg.problems()) known.push_back(p->name);
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  throw dpgpu::InputError(fmt::format("list: no problem or solver named '{}' (known: all, problems, solvers, "
                                      "generators, {})", name, fmt::join(known, ", ")));
}

int list(const std::string& what) {
  auto& reg = dpgpu::Registry::get();
  if (what != "all" && what != "problems" && what != "generators" && what != "solvers") return list_one(what);
  if (what == "problems" || what == "all") {
    std::cout << "problems:\n";
    for (auto* p : reg.problems()) std::cout << fmt::format("  {:<12} {}\n", p->name, p->help);
  }
  if (what == "generators" || what == "all") {
    std::cout << "generators:\n";
    for (auto* p : reg.problems())
      for (auto& g : p->generators) {
        std::cout << fmt::format("  {}/{:<20} {}\n", p->name, g.name, g.help);
        print_schema(g.schema, "      ");
      }
  }
  if (what == "solvers" || what == "all") {
    std::cout << "solvers:\n";
    for (auto* s : reg.solvers()) print_solver(*s);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The child-process side of an isolated case; not a user command.
  if (argc >= 2 && std::string(argv[1]) == "__worker") return dpgpu::worker_main(argc, argv);
  // The guard that undoes locked clocks when the run that locked them dies (clock_lock.hpp).
  if (argc >= 2 && std::string(argv[1]) == "__clock-guard") return dpgpu::clock_guard_main(argc, argv);

  dpgpu::set_command_line(argc, argv);  // context.json records it
  CLI::App app{"dpgpu: GPU strategies for dynamic programming and backtracking against CPU baselines"};
  app.require_subcommand(1);

  dpgpu::RunOptions run_opt;
  std::string run_file;
  int reps = 0;
  auto* run = app.add_subcommand("run", "run an experiment file and write its results");
  run->add_option("file", run_file, "experiment YAML file")->required();
  run->add_option("--out", run_opt.out, "results folder (default results/<name>)");
  run->add_option("--filter", run_opt.filter, "only cases whose id matches this regular expression");
  run->add_option("--repetitions", reps, "counted repetitions per case (overrides the file)")
      ->check(CLI::PositiveNumber);
  run->add_flag("--resume", run_opt.resume, "continue the same experiment in its folder: run only the cases not yet recorded");
  run->add_flag("--fresh", run_opt.fresh, "move the folder's old results to previous-<time>/ and start over");
  run->add_option("--max-cases", run_opt.max_cases, "refuse sweeps expanding to more cases than this (default 1000000)")
      ->check(CLI::PositiveNumber);
  std::vector<std::string> sets;
  run->add_option("--set,--axis", sets, "PATH=VALUE: change the experiment without editing it, e.g. "
                  "solvers.gpu.wavefront.params.tile_width=[256,512] (repeatable)")->allow_extra_args(false);
  run->add_option("--shard", run_opt.shard, "K/N: run only shard K (0 to N-1) of N; N such runs together run every "
                  "case once (default folder results/<name>/shard-K-of-N; join them with dpgpu merge)");
  run->add_option("--gpus", run_opt.gpus, "all | 0,1,3: one worker per GPU, each case in a child that sees only "
                  "its card (an index twice: two workers share it); CPU cases beside them on the CPUs left");
  run->add_option("--cpu-workers", run_opt.cpu_workers, "with --gpus: workers for CPU cases (default 1), each on "
                  "its share of the CPUs left")->check(CLI::Range(1, 1024));
  run->add_flag("--share-gpus", run_opt.share_gpus,
                "allow a case's solver parameter gpus to exceed the GPUs (with --gpus: the lanes' cards); its logical "
                "GPUs then share the cards: exact answers, times that are no scaling figure");
  run->add_flag("--dry-run", run_opt.dry_run, "print the cases and what would happen; write nothing");
  run->add_flag("-v,--verbose", run_opt.verbose, "solver logs and child-process output");
  run->add_flag("--profile", run_opt.profile, "profile GPU cases (CUPTI in the worker, or ncu; metrics of the file's profile: section, or the paper's three)");
  run->add_flag("--no-profile", run_opt.no_profile, "skip profiling even when the file asks for it");
  run->add_option("--lock-clocks", run_opt.lock_clocks, "lock the GPUs' clocks for the run (root): base, max, MHz "
                  "or sm=...,memory=... (replaces the file's clocks:); reset when the run ends, however it ends");

  std::string check_file;
  auto* check = app.add_subcommand("check", "validate an experiment file and print its cases");
  check->add_option("file", check_file, "experiment YAML file")->required();
  std::uint64_t check_max_cases = 1'000'000;
  check->add_option("--max-cases", check_max_cases, "refuse sweeps expanding to more cases than this")
      ->check(CLI::PositiveNumber);

  bool check_share_gpus = false;
  check->add_flag("--share-gpus", check_share_gpus,
                  "allow a case's solver parameter gpus to exceed the GPUs here (its logical GPUs share the cards)");
  int check_shards = 0;
  check->add_option("--shards", check_shards, "N: show which of N shards (dpgpu run --shard K/N) runs each case")
      ->check(CLI::Range(1, 1'000'000));

  std::vector<std::string> merge_dirs;
  dpgpu::MergeOptions merge_opt;
  std::string merge_into;
  auto* merge = app.add_subcommand("merge", "join the results folders of one plan's shards into one results folder");
  merge->add_option("folders", merge_dirs, "results folders of dpgpu run --shard K/N (of one experiment)")->required();
  merge->add_option("--into", merge_into, "the merged results folder (new or empty)")->required();
  merge->add_flag("--fresh", merge_opt.fresh, "move what --into holds to previous-<time>/ first");
  merge->add_flag("--allow-partial", merge_opt.allow_partial, "merge although cases are missing (they are listed)");

  std::string list_what = "all";
  auto* lst = app.add_subcommand("list", "list problems, solvers or generators with their parameters");
  lst->add_option("what", list_what, "problems | solvers | generators | a problem or solver name");

  dpgpu::PlotOptions plot_opt;
  auto* plot = app.add_subcommand("plot", "draw figures from a results folder (Python + Matplotlib)");
  plot->add_option("results", plot_opt.results, "results folder (required unless --list)");
  plot->add_option("--figure", plot_opt.figure, "figure kind (default: all the experiment declares)");
  plot->add_option("--format", plot_opt.format, "png, pdf or png,pdf");
  plot->add_option("--x", plot_opt.x, "x column for every figure that has one (i.n, s.block, n)");
  plot->add_flag("--list", plot_opt.list, "list the figure kinds (and the folder's declared figures)");

  // report and compare: Python (plots/dpgpu_report.py, plots/dpgpu_compare.py); options pass through.
  auto* report = app.add_subcommand("report", "RESULTS_DIR [--no-plot]: write report.html and report.md there");
  report->prefix_command();
  auto* compare = app.add_subcommand("compare", "BASE NEW [--threshold 5%] [--out DIR]: case by case, exit 1 when slower");
  compare->prefix_command();

  dpgpu::SlurmOptions slurm_opt;
  auto* slurm = app.add_subcommand("slurm", "write (and with --submit, submit) a Slurm job array: one task per shard, then a merge");
  slurm->add_option("file", slurm_opt.file, "experiment YAML file")->required();
  slurm->add_option("--shards", slurm_opt.shards, "N array tasks, each `dpgpu run FILE --shard K/N --resume`")->required();
  slurm->add_option("--out", slurm_opt.out, "the job's folder: shard-K-of-N/, merged/, slurm/ (default results/<name>)");
  slurm->add_option("--partition", slurm_opt.resources.partition, "sbatch --partition");
  slurm->add_option("--account", slurm_opt.resources.account, "sbatch --account");
  slurm->add_option("--time", slurm_opt.resources.time, "sbatch --time per task: minutes, HH:MM:SS, D-HH:MM ...");
  slurm->add_option("--gres", slurm_opt.resources.gres, "sbatch --gres per task, e.g. gpu:1 or gpu:a100:2");
  slurm->add_option("--gpus-per-task", slurm_opt.resources.gpus_per_task, "sbatch --gpus-per-task ([type:]count)");
  slurm->add_option("--cpus-per-task", slurm_opt.resources.cpus_per_task, "sbatch --cpus-per-task");
  slurm->add_option("--max-running", slurm_opt.resources.max_running, "at most this many tasks at once (--array=0-(N-1)%M)");
  slurm->add_option("--gpus", slurm_opt.run_gpus, "dpgpu run --gpus in each task: all, or indices within the task's GPUs");
  slurm->add_option("--cpu-workers", slurm_opt.cpu_workers, "dpgpu run --cpu-workers in each task (with --gpus)")
      ->check(CLI::Range(1, 1024));
  slurm->add_option("--max-cases", slurm_opt.max_cases, "refuse sweeps expanding to more cases than this")
      ->check(CLI::PositiveNumber);
  slurm->add_flag("--submit", slurm_opt.submit, "submit the array, then the merge after it (sbatch --parsable)");

  CLI11_PARSE(app, argc, argv);
  try {
    if (*run) {
      if (reps > 0) run_opt.repetitions = reps;
      if (sets.empty()) return dpgpu::run_experiment(run_file, run_opt);
      // The changed file runs from beside the original (relative paths hold) and is copied
      // into the results folder like any experiment file; then it goes.
      struct Removed {
        std::filesystem::path path;
        ~Removed() { std::filesystem::remove(path); }
      } changed{dpgpu::write_overridden(run_file, sets)};
      return dpgpu::run_experiment(changed.path.string(), run_opt);
    }
    if (*check) return dpgpu::check_experiment(check_file, check_max_cases, check_shards, check_share_gpus);
    if (*merge) {
      merge_opt.into = merge_into;
      return dpgpu::merge_results({merge_dirs.begin(), merge_dirs.end()}, merge_opt);
    }
    if (*lst) return list(list_what);
    if (*slurm) return dpgpu::slurm_command(slurm_opt);
    if (*plot) {
      if (plot_opt.results.empty() && !plot_opt.list) throw dpgpu::InputError("plot: RESULTS_DIR is required");
      return dpgpu::plot_results(plot_opt);
    }
    if (*report) return dpgpu::run_plots_script("dpgpu_report.py", report->remaining());
    if (*compare) return dpgpu::run_plots_script("dpgpu_compare.py", compare->remaining());
  } catch (const dpgpu::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
