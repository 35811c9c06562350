// runner.cpp — `dpgpu run`: plan → run → report. The plan is made (and every instance read)
// before anything is written; each case is run, committed to the results folder's journal,
// and every output rebuilt from the committed records.
#include "dpgpu/runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <map>

#include "dpgpu/error.hpp"
#include "host_info.hpp"
#include "interrupt.hpp"
#include "plan.hpp"
#include "profiler.hpp"
#include "profiler_cupti.hpp"
#include "record_rows.hpp"
#include "reporter.hpp"
#include "results_folder.hpp"
#include "run_case.hpp"
#include "tally.hpp"
#include "worker_pool.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

ProfileSettings profile_settings(const Experiment& shared, const RunOptions& opt) {
  ProfileSettings p;
  p.on = !opt.no_profile && (opt.profile || shared.profile.has_value());
  p.metrics = resolve_metrics(shared.profile && !shared.profile->metrics.empty() ? shared.profile->metrics
                                                                                : default_metrics());
  p.max_launches = shared.profile ? shared.profile->max_launches : ProfileSpec{}.max_launches;
  if (shared.profile) p.ncu = NcuOptions{shared.profile->cache_control, shared.profile->replay};
  p.backend = shared.profile ? shared.profile->backend : ProfileSpec{}.backend;
  return p;
}

void print_dry_run(const RunPlan& plan) {
  std::size_t n = 0;
  for (std::size_t i : plan.selected) {
    const CaseSpec& c = plan.cases[i];
    const char* what = c.decision == Decision::Run ? "run " : c.decision == Decision::Skip ? "skip" : "refuse";
    std::cout << fmt::format("{:>5}  {}  {}\n", ++n, what, c.id);
    if (c.decision != Decision::Run) std::cout << "         " << c.reason << "\n";
  }
}

// Rewrites every output from the committed records. Cheap for a small folder; on a large one
// it runs only while it costs under a tenth of the run's time (and always at the end).
class Rebuilder {
 public:
  Rebuilder(std::vector<std::unique_ptr<Reporter>>& reporters, const RunPlan& plan, const ResultsFolder& folder)
      : reporters_(reporters), plan_(plan), folder_(folder) {}
  void maybe() {
    if (seconds_since(last_) < 10 * cost_s_) return;
    now();
  }
  void now() {
    const auto start = Clock::now();
    const Records records = folder_.in_plan_order(plan_);  // O(cases): only when rebuilding
    for (auto& r : reporters_) r->rebuild(records);
    cost_s_ = seconds_since(start);
    last_ = Clock::now();
  }

 private:
  std::vector<std::unique_ptr<Reporter>>& reporters_;
  const RunPlan& plan_;
  const ResultsFolder& folder_;
  Clock::time_point last_{};
  double cost_s_ = 0;
};

}  // namespace

// The run's closing facts in context.json. The place to add what is measured at the end of
// a run (the host's load, for instance: context["host_load_end"]).
void finish_context(nlohmann::json& context) {
  context["end"] = now_iso8601();
  context["gpu_clocks_end"] = gpu_clock_reading();
  context["host_load_end"] = host_load();  // what explains noise, at the end as at the start
}

int run_experiment(const fs::path& file, const RunOptions& opt) {
  if (opt.resume && opt.fresh) throw InputError("--resume and --fresh exclude each other: continue, or start over");
  PlanOptions plan_opt{opt.filter, opt.repetitions, opt.max_cases};
  if (!opt.shard.empty()) plan_opt.shard = parse_shard(opt.shard);
  plan_opt.verbose = opt.verbose;
  const RunPlan plan = make_plan(file, plan_opt);
  if (opt.dry_run) {
    print_dry_run(plan);
    return 0;
  }
  const Experiment& shared = plan.shared();
  // --gpus: the lanes, made before anything is written (a bad index is exit 2).
  std::vector<Lane> lanes;
  if (!opt.gpus.empty()) {
    std::string note;
    lanes = make_lanes(opt.gpus, opt.cpu_workers, &note);
    if (!note.empty()) std::cerr << note << "\n";
  }
  fs::path out = opt.out;
  if (out.empty()) out = plan.shard ? fs::path("results") / shared.name / plan.shard->folder_name() : fs::path("results") / shared.name;
  ResultsFolder folder(out, plan, {opt.resume, opt.fresh, !opt.filter.empty()});
  if (!folder.moved_aside().empty()) std::cerr << "old results moved to " << folder.moved_aside().string() << "\n";
  install_interrupt_handlers();

  const ProfileSettings profiling = profile_settings(shared, opt);
  nlohmann::json context{{"experiment", shared.name},
                         {"experiment_file", fs::absolute(file).string()},
                         {"start", now_iso8601()},
                         {"git_commit", git_commit()},
                         {"host", host_facts()},
                         {"gpu", gpu_facts()},
                         {"gpu_clocks_start", gpu_clock_reading()},
                         {"repetitions", plan.fingerprint["repetitions"]},
                         {"warmup", shared.warmup},
                         {"timeout_s", shared.timeout_s},
                         {"plan_hash", plan.fingerprint_hash},
                         {"resumed_cases", folder.committed_count()}};
  if (!lanes.empty()) {
    context["lanes"] = nlohmann::json::array();
    for (auto& lane : lanes) context["lanes"].push_back(lane.facts);
  }
  if (plan.shard)
    context["shard"] = {{"index", plan.shard->index}, {"count", plan.shard->count}, {"cases", plan.shard_cases.size()}};
  write_file_atomically(out / "context.json", context.dump(2) + "\n");

  std::vector<std::unique_ptr<Reporter>> files = output_reporters(out, context, profiling.on, shared.series);
  auto progress = progress_reporter(std::cerr);
  Rebuilder rebuild(files, plan, folder);
  rebuild.now();

  // The cases left to run (--resume: those not committed), in plan order.
  std::vector<const CaseSpec*> todo;
  for (std::size_t i : plan.selected)
    if (!(opt.resume && folder.committed(plan.cases[i].id))) todo.push_back(&plan.cases[i]);
  const auto started = Clock::now();
  Progress p;
  p.total = plan.selected.size();
  p.done = p.total - todo.size();
  std::size_t ran = 0;
  auto commit = [&](CaseRecord rec) {
    ++ran, ++p.done;
    p.elapsed_s = seconds_since(started);
    p.left_s = p.elapsed_s / double(ran) * double(p.total - p.done);
    progress->case_finished(rec, p);
    folder.commit(std::move(rec));
    if (!folder.removed_figures().empty() && ran == 1)
      std::cerr << "removed " << folder.removed_figures().string()
                << ": its figures were drawn from data that changed (redraw with dpgpu plot)\n";
    rebuild.maybe();
  };
  if (lanes.empty()) {
    for (const CaseSpec* spec : todo) {
      if (stop_requested()) break;
      commit(run_case(*spec, profiling));
    }
  } else {
    auto on_lane = [&](const CaseSpec& spec, const Lane& lane) {
      CaseRecord rec = run_case(spec, profiling, &lane.where);
      rec.worker = lane.facts;
      return rec;
    };
    run_on_lanes(lanes, todo, on_lane, commit, [] { return stop_requested() != 0; });
  }
  rebuild.now();
  finish_context(context);
  write_file_atomically(out / "context.json", context.dump(2) + "\n");

  const int code = tally(plan.name(), folder.in_plan_order(plan),
                         plan.shard ? plan.shard_cases.size() : plan.cases.size(),
                         plan.shard ? " of shard " + plan.shard->str() : "", out.string());
  if (int sig = stop_requested()) {
    std::cerr << fmt::format("stopped by signal {} after {} of {} cases; continue with:\n  dpgpu run {}{}{} --out {} --resume\n",
                             sig, p.done, p.total, file.string(), plan.shard ? " --shard " + plan.shard->str() : "",
                             opt.gpus.empty() ? "" : " --gpus " + opt.gpus, out.string());
    return 128 + sig;
  }
  return code;
}

int check_experiment(const fs::path& file, std::uint64_t max_cases, int shards) {
  PlanOptions opt;
  opt.max_cases = max_cases;
  const RunPlan plan = make_plan(file, opt);
  std::vector<int> shard_of;
  if (shards > 0) shard_of = shard_of_cases(plan.cases, shards);
  std::size_t n = 0;
  std::map<std::size_t, std::size_t> cases_of_part;
  for (const CaseSpec& c : plan.cases) {
    std::string note = c.decision == Decision::Run ? "" : fmt::format("   ({}: {})", c.decision == Decision::Skip ? "skipped" : "refused", c.reason);
    std::string shard = shards > 0 ? fmt::format("  [shard {}/{}]", shard_of[n], shards) : "";
    std::cout << fmt::format("{:>5}  {}{}{}\n", ++n, c.id, shard, note);
    cases_of_part[c.part]++;
  }
  for (const Experiment& e : plan.parts) {
    Plan expanded = expand(e);
    std::cout << fmt::format("{}{}: {} instances x {} solver points = {} cases, {} repetitions each\n", e.name,
                             plan.parts.size() > 1 ? fmt::format(" part {} ({})", e.part, e.problem) : "",
                             expanded.instances.size(), expanded.solvers.size(), cases_of_part[e.part],
                             plan.fingerprint["repetitions"].get<int>());
  }
  if (const auto& profile = plan.parts.front().profile) {
    const ProfileSettings p = profile_settings(plan.parts.front(), RunOptions{});
    std::vector<std::string> hopper;
    for (auto& m : p.metrics) hopper.push_back(m.ncu);
    // The H100's metric list answers without a GPU: a misspelt metric fails here, not after the run.
    if (p.backend == "cupti") {
      if (auto unknown = cupti_unknown_metrics(hopper, "GH100"); !unknown.empty())
        throw InputError(fmt::format("{}: profile.metrics: not an H100 metric: {}", file.string(), fmt::join(unknown, "; ")));
    }
    std::cout << fmt::format("profile: backend {}{}, {} launches at most per case, metrics {}\n", p.backend,
                             p.backend == "cupti" && !cupti_built() ? " (built without CUPTI: ncu stands in)" : "",
                             p.max_launches, fmt::join(hopper, ", "));
  }
  if (shards > 0) {
    // What --shard K/N will run: cases and estimated cost (the instances' work) per shard.
    std::vector<double> cost(std::size_t(shards), 0.0);
    std::vector<std::size_t> count(std::size_t(shards), 0);
    double total = 0;
    for (std::size_t i = 0; i < plan.cases.size(); ++i) {
      cost[std::size_t(shard_of[i])] += estimated_cost(plan.cases[i]);
      count[std::size_t(shard_of[i])]++;
      total += estimated_cost(plan.cases[i]);
    }
    for (int k = 0; k < shards; ++k)
      std::cout << fmt::format("shard {}/{}: {} cases, estimated cost {:.4g} ({:.1f}% of the work)\n", k, shards,
                               count[std::size_t(k)], cost[std::size_t(k)],
                               total > 0 ? 100 * cost[std::size_t(k)] / total : 0.0);
  }
  return 0;
}

}  // namespace dpgpu
