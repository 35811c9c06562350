// runner.cpp — `dpgpu run`: plan → run → report. The plan is made (and every instance read)
// before anything is written; each case is run, committed to the results folder's journal,
// and every output rebuilt from the committed records.
#include "cli/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>

#include "plan/case_table.hpp"
#include "dpgpu/error.hpp"
#include "device/clock_lock.hpp"
#include "device/host_info.hpp"
#include "process/interrupt.hpp"
#include "plan/plan.hpp"
#include "profile/profiler.hpp"
#include "profile/profiler_cupti.hpp"
#include "results/record_rows.hpp"
#include "report/reporter.hpp"
#include "results/results_folder.hpp"
#include "run/run_case.hpp"
#include "results/tally.hpp"
#include "run/time_left.hpp"
#include "scale/worker_pool.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

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

// The run's closing facts in context.json. The place to add what is measured at the end of
// a run (the host's load, for instance: context["host_load_end"]).
void finish_context(nlohmann::json& context) {
  context["end"] = now_iso8601();
  context["gpu_clocks_end"] = gpu_clock_reading();
  context["host_load_end"] = host_load();  // what explains noise, at the end as at the start
}

int run_experiment(const fs::path& file, const RunOptions& opt) {
  if (opt.resume && opt.fresh) throw InputError("--resume and --fresh exclude each other: continue, or start over");
  const RunPlan plan = make_plan(file, {.filter = opt.filter,
                                        .repetitions = opt.repetitions,
                                        .max_cases = opt.max_cases,
                                        .shard = opt.shard.empty() ? std::nullopt : std::optional(parse_shard(opt.shard)),
                                        .verbose = opt.verbose,
                                        .share_gpus = opt.share_gpus});
  if (opt.dry_run) {
    print_case_table(std::cout, plan, plan.selected);
    return 0;
  }
  const Experiment& shared = plan.shared();
  // --gpus: the lanes, made before anything is written (a bad index is exit 2).
  std::vector<Lane> lanes;
  if (!opt.gpus.empty()) {
    std::string note;
    lanes = make_lanes(opt.gpus, opt.cpu_workers, &note);
    if (!note.empty()) std::cerr << note << "\n";
    std::vector<const CaseSpec*> selected;
    for (std::size_t i : plan.selected) selected.push_back(&plan.cases[i]);
    check_cards(lanes, selected, opt.share_gpus);
  }
  // Locked clocks, held by this process until it returns (clock_lock.hpp says what undoes
  // them on every other way out); refused before anything is written.
  const ClockRequest clocks = opt.lock_clocks.empty() ? shared.clocks : parse_lock_clocks(opt.lock_clocks);
  std::optional<ClockLock> clock_lock;
  if (clocks.any()) clock_lock.emplace(clocks);
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
  context["energy_window_s"] = shared.energy_window_s;
  if (clock_lock) context["clocks"] = clock_lock->facts();
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
  TimeLeft time_left(todo);  // by each case's work, not by count (time_left.hpp)
  if (!lanes.empty()) {
    const auto gpu_lanes = std::count_if(lanes.begin(), lanes.end(), [](const Lane& l) { return l.gpu; });
    time_left.set_lanes(int(gpu_lanes), int(lanes.size() - std::size_t(gpu_lanes)));
  }
  std::size_t ran = 0;
  auto commit = [&](CaseRecord rec) {
    ++ran, ++p.done;
    time_left.finished(rec.spec, rec.wall_s);
    p.elapsed_s = seconds_since(started);
    p.left_s = time_left.seconds();
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
      CaseRecord rec = run_case(*spec, profiling);
      if (wants_gpu_lane(*spec) && cards_wanted(*spec) > 1) rec.worker = plain_run_cards(cards_wanted(*spec));
      commit(std::move(rec));
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

}  // namespace dpgpu
