// check_command.cpp — `dpgpu check`: the plan made (every instance read, every rule
// checked) and shown as the case table; nothing runs, nothing is written. A case that
// breaks a rule of its solver is listed with the others, then the command fails (exit 2)
// with the errors `run` would stop on. With --shards N, each case names its shard and a line
// per shard gives its cases and share of the work (what `run --shard K/N` will run). Solvers
// that state a memory plan get a line per case with it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <string>

#include "plan/case_table.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/params.hpp"
#include "dpgpu/registry_table.hpp"
#include "cli/command.hpp"
#include "cli/runner.hpp"
#include "device/clock_lock.hpp"
#include "records/human_format.hpp"
#include "plan/plan.hpp"
#include "profile/profiler_cupti.hpp"
#include "run/run_case.hpp"
#include "plan/shard.hpp"

namespace dpgpu {

namespace {

void print_shards(const RunPlan& plan, const std::vector<int>& shard_of, int shards) {
  const std::vector<ShardLoad> load = shard_loads(plan.cases, shard_of, shards);
  for (int k = 0; k < shards; ++k)
    std::cout << fmt::format("shard {}/{}: {} cases, estimated cost {} ({:.1f}% of the work)\n", k,
                             shards, load[std::size_t(k)].cases,
                             format_count(load[std::size_t(k)].cost),
                             100 * load[std::size_t(k)].share);
}

// The profile section: backend and metrics. The H100's metric list answers without a GPU, so a
// misspelt metric fails here, not after the run.
void check_profile(const RunPlan& plan) {
  const auto& profile = plan.parts.front().profile;
  if (!profile) return;
  const ProfileSettings p = profile_settings(plan.parts.front(), RunOptions{});
  std::vector<std::string> hopper;
  for (auto& m : p.metrics) hopper.push_back(m.ncu);
  if (p.backend == "cupti")
    for (std::size_t i = 0; i < hopper.size() && i < profile->metric_where.size(); ++i)
      if (auto unknown = cupti_unknown_metrics({hopper[i]}, "GH100"); !unknown.empty())
        throw InputError(fmt::format("{}: profile.metrics: not an H100 metric: {}",
                                     profile->metric_where[i].str(), unknown.front()));
  std::cout << fmt::format(
      "profile: backend {}{}, {} launches at most per case, metrics {}\n", p.backend,
      p.backend == "cupti" && !cupti_built() ? " (built without CUPTI: ncu stands in)" : "",
      p.max_launches, fmt::join(hopper, ", "));
}

// The clocks the run will lock, checked against this host's GPUs where there are some.
void check_clocks(const std::filesystem::path& file, const RunPlan& plan) {
  const ClockRequest& c = plan.parts.front().clocks;
  if (!c.any()) return;
  if (auto why = check_clocks_on_device(c); !why.empty())
    throw InputError(file.string() + ": " + why);
  std::cout << fmt::format(
      "clocks: {} locked for the whole run (NVML, needs root), reset when it ends\n", c.str());
}

// Each case's memory plan, for solvers that state one (SolverEntry::memory_plan): what it
// will allocate per GPU and on the host, so a user sees before running what fits.
// Cases that break a rule (RunPlan::broken) have none.
void print_memory_plans(const RunPlan& plan) {
  std::set<std::size_t> broken;
  for (const auto& b : plan.broken) broken.insert(b.case_index);
  for (std::size_t i : plan.selected) {
    const CaseSpec& c = plan.cases[i];
    if (broken.count(i)) continue;
    const SolverEntry* s = Registry::get().solver(c.problem, c.solver);
    if (!s || !s->memory_plan) continue;
    if (std::string text = s->memory_plan(Params(c.solver_params), c.dims); !text.empty())
      std::cout << fmt::format("memory plan {}: {}\n", c.id, text);
  }
}

}  // namespace

int check_experiment(const std::filesystem::path& file, std::uint64_t max_cases, int shards,
                     bool share_gpus, const std::vector<std::string>& sets) {
  PlanOptions opt;
  opt.sets = sets;
  opt.max_cases = max_cases;
  opt.share_gpus = share_gpus;
  opt.keep_broken = true;
  const RunPlan plan = make_plan(file, opt);
  std::vector<int> shard_of;
  if (shards > 0) shard_of = shard_of_cases(plan.cases, shards);
  print_case_table(std::cout, plan, plan.selected, shard_of, shards);
  if (shards > 0) print_shards(plan, shard_of, shards);
  print_memory_plans(plan);
  check_profile(plan);
  check_clocks(file, plan);
  std::cout << std::flush;
  if (plan.broken.empty()) return 0;
  constexpr std::size_t kShown = 10;
  for (std::size_t i = 0; i < std::min(plan.broken.size(), kShown); ++i)
    std::cerr << "error: " << plan.broken[i].message << "\n";
  if (plan.broken.size() > kShown)
    std::cerr << fmt::format(
        "error: and {} more cases that break a rule of their solver (listed above)\n",
        plan.broken.size() - kShown);
  return 2;
}

namespace cli {

Command add_check_command(CLI::App& app) {
  struct Args {
    std::string file;
    std::uint64_t max_cases = 1'000'000;
    int shards = 0;
    bool share_gpus = false;
    std::vector<std::string> sets;
  };
  auto a = std::make_shared<Args>();
  auto* check = app.add_subcommand("check", "validate an experiment file and print its cases");
  check->add_option("file", a->file, "experiment YAML file")->required();
  check->add_option("--max-cases", a->max_cases, "refuse sweeps expanding to more cases than this")
      ->check(positive_whole_number());
  check
      ->add_option("--shards", a->shards,
                   "N: show which of N shards (dpgpu run --shard K/N) runs each case")
      ->check(CLI::Range(1, 1'000'000));
  check->add_flag("--share-gpus", a->share_gpus,
                  "allow a case's solver parameter gpus to exceed the GPUs here (its logical GPUs "
                  "share the cards)");
  check
      ->add_option("--set,--axis", a->sets,
                   "PATH=VALUE: check the experiment as `run --set` would run it "
                   "(repeatable)")
      ->allow_extra_args(false);
  return {check, [a] {
            return check_experiment(a->file, a->max_cases, a->shards, a->share_gpus, a->sets);
          }};
}

}  // namespace cli

}  // namespace dpgpu
