// runner.cpp — `dpgpu run`: plan → run → report. The plan is made (and every instance read)
// before anything is written; each case is run, committed to the results folder's journal,
// and every output rebuilt from the committed records.
#include "cli/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
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
#include "records/csv_table.hpp"
#include "results/counter_declarations.hpp"
#include "results/measuring_conditions.hpp"
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

// A word the shell reads back as it is: 'r/sp ace' quoted, r/plain left alone.
std::string shell_quoted(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+./=:,@%") ==
          std::string::npos)
    return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Rewrites every output from the committed records. Cheap for a small folder; on a large one
// it runs only while it costs under a tenth of the run's time (and always at the end).
class Rebuilder {
 public:
  Rebuilder(std::vector<std::unique_ptr<Reporter>>& reporters, const RunPlan& plan,
            const ResultsFolder& folder)
      : reporters_(reporters), plan_(plan), folder_(folder) {}
  void maybe() {
    if (seconds_since(last_) < 10 * cost_s_) return;
    now();
  }
  void now() {
    folder_.check_in_place();  // written by path: a folder moved away would get half a set
    const auto start = Clock::now();
    const Records records = folder_.in_plan_order(plan_);  // O(cases): only when rebuilding
    try {
      for (auto& r : reporters_) r->rebuild(records);
    } catch (const WriteError&) {
      folder_.check_in_place();  // moved away while the files were written: say that instead
      throw;
    }
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

// --gpus: the lanes, made before anything is written (a bad index is exit 2).
std::vector<Lane> lanes_of(const RunOptions& opt, const RunPlan& plan) {
  if (opt.gpus.empty()) return {};
  std::string note;
  std::vector<Lane> lanes = make_lanes(opt.gpus, opt.cpu_workers, &note);
  if (!note.empty()) std::cerr << note << "\n";
  std::vector<const CaseSpec*> selected;
  for (std::size_t i : plan.selected) selected.push_back(&plan.cases[i]);
  check_cards(lanes, selected, opt.share_gpus);  // a multi-GPU case needs that many cards
  return lanes;
}

// --out, else results/<name> (a shard: results/<name>/shard-K-of-N).
fs::path results_path(const RunPlan& plan, const RunOptions& opt) {
  if (!opt.out.empty()) return opt.out;
  const fs::path folder = fs::path("results") / plan.shared().name;
  return plan.shard ? folder / plan.shard->folder_name() : folder;
}

// The run's opening facts in context.json (finish_context adds the closing ones).
nlohmann::json start_context(const fs::path& file, const RunPlan& plan, std::size_t resumed_cases,
                             const std::vector<Lane>& lanes) {
  nlohmann::json context{{"experiment", plan.shared().name},
                         {"experiment_file", fs::absolute(file).string()},
                         {"start", now_iso8601()},
                         {"git_commit", git_commit()},
                         {"host", host_facts()},
                         {"gpu", gpu_facts()},
                         {"gpu_clocks_start", gpu_clock_reading()},
                         {"repetitions", plan.fingerprint["repetitions"]},
                         {"warmup", plan.shared().warmup},
                         {"timeout_s", plan.shared().timeout_s},
                         {"plan_hash", plan.fingerprint_hash},
                         {"resumed_cases", resumed_cases}};
  context["energy_window_s"] = plan.shared().energy_window_s;
  if (!lanes.empty()) {
    context["lanes"] = nlohmann::json::array();
    for (auto& lane : lanes) context["lanes"].push_back(lane.facts);
  }
  if (plan.shard)
    context["shard"] = {{"index", plan.shard->index},
                        {"count", plan.shard->count},
                        {"cases", plan.shard_cases.size()}};
  return context;
}

// Stopped by a signal: how to go on (`resume`, shell-quoted); exit 128 + the signal.
int stopped(int sig, const Progress& p, const std::string& resume) {
  std::cerr << fmt::format("stopped by signal {} after {} of {} cases; continue with:\n  {}\n", sig,
                           p.done, p.total, resume);
  return 128 + sig;
}

}  // namespace

std::string resume_command(const fs::path& file, const RunOptions& opt, const fs::path& out,
                           const std::string& shard) {
  std::string s = "dpgpu run " + shell_quoted(file.string());
  for (const std::string& set : opt.sets) s += " --set " + shell_quoted(set);
  if (!opt.filter.empty()) s += " --filter " + shell_quoted(opt.filter);  // an unfinished rerun
  if (!shard.empty()) s += " --shard " + shell_quoted(shard);
  if (opt.repetitions)
    s += fmt::format(" --repetitions {}", *opt.repetitions);  // part of the plan's fingerprint
  if (!opt.gpus.empty()) s += " --gpus " + shell_quoted(opt.gpus);
  if (!opt.gpus.empty() && opt.cpu_workers != 1)
    s += fmt::format(" --cpu-workers {}", opt.cpu_workers);
  if (opt.share_gpus) s += " --share-gpus";
  return s + " --out " + shell_quoted(out.string()) + " --resume";
}

ProfileSettings profile_settings(const Experiment& shared, const RunOptions& opt) {
  ProfileSettings p;
  p.on = !opt.no_profile && (opt.profile || shared.profile.has_value());
  p.metrics =
      resolve_metrics(shared.profile && !shared.profile->metrics.empty() ? shared.profile->metrics
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

// The cases left to run (--resume: those not committed, or whose worker was SIGKILLed by
// the OOM killer or another outsider), in plan order.
// A --filter rerun (or --resume continuing one): those it has not measured again yet.
std::vector<const CaseSpec*> cases_to_run(const RunPlan& plan, const ResultsFolder& folder,
                                          bool resume) {
  std::vector<const CaseSpec*> todo;
  for (std::size_t i : plan.selected) {
    const std::string& id = plan.cases[i].id;
    const bool done = folder.filtering() ? folder.rerun_done(id) : resume && folder.committed(id);
    if (!(done && !killed_outside(folder.record(id)->result))) todo.push_back(&plan.cases[i]);
  }
  return todo;
}

// --resume of a folder whose --filter rerun was stopped: that rerun's cases, and its filter
// in every resume command printed.
void continue_filter(RunPlan& plan, RunOptions& opt, const ResultsFolder& folder) {
  if (!folder.adopted_filter()) return;
  if (opt.filter.empty()) select_cases(plan, folder.filter());
  opt.filter = folder.filter();
  std::cerr << fmt::format(
      "continuing the unfinished --filter '{}' rerun of {} ({} cases selected)\n", folder.filter(),
      folder.dir().string(), plan.selected.size());
}

// The rerun is finished once each case it selects was measured again by it.
void finish_filter(const RunPlan& plan, ResultsFolder& folder) {
  if (!folder.filtering()) return;
  for (std::size_t i : plan.selected)
    if (!folder.rerun_done(plan.cases[i].id)) return;
  folder.finish_filter();
}

// The estimate of time left counts the lanes that run cases side by side (time_left.hpp).
void count_lanes(TimeLeft& time_left, const std::vector<Lane>& lanes) {
  if (lanes.empty()) return;
  const auto gpu_lanes =
      std::count_if(lanes.begin(), lanes.end(), [](const Lane& l) { return l.gpu; });
  time_left.set_lanes(int(gpu_lanes), int(lanes.size() - std::size_t(gpu_lanes)));
}

// Runs the cases in this process, one after another, or on the --gpus lanes; each record goes
// to `commit` as it finishes; no case starts once `stop()` is true.
void run_cases(const std::vector<const CaseSpec*>& todo, const std::vector<Lane>& lanes,
               const ProfileSettings& profiling, const CommitRecord& commit,
               const std::function<bool()>& stop) {
  if (!lanes.empty()) {
    auto on_lane = [&](const CaseSpec& spec, const Lane& lane) {
      CaseRecord rec = run_case(spec, profiling, &lane.where);
      rec.worker = lane.facts;
      return rec;
    };
    run_on_lanes(lanes, todo, on_lane, commit, stop);
    return;
  }
  for (const CaseSpec* spec : todo) {
    if (stop()) break;
    CaseRecord rec = run_case(*spec, profiling);
    if (wants_gpu_lane(*spec) && cards_wanted(*spec) > 1)
      rec.worker = plain_run_cards(cards_wanted(*spec));
    commit(std::move(rec));
  }
}

// The derived files and context.json's closing facts, written once the cases are done. A write
// that fails (now or during the run: `write_failed`) is reported with the resume command and
// makes the run's exit 1; nullopt when every file was written.
std::optional<int> close_results(ResultsFolder& folder, Rebuilder& rebuild, nlohmann::json& context,
                                 const fs::path& out, std::string write_failed,
                                 const std::string& resume) {
  try {
    if (write_failed.empty()) {
      rebuild.now();
      finish_context(context);
      write_file_atomically(out / "context.json", context.dump(2) + "\n");
    }
  } catch (const WriteError& e) {
    write_failed = e.what();
  }
  if (write_failed.empty()) return std::nullopt;
  folder.remove_temporary_files();
  std::cerr << fmt::format(
      "error: {}\nthe {} cases committed before it are kept in {}'s journal; free space (or "
      "put the folder back) and continue with:\n  {}\n",
      write_failed, folder.committed_count(), out.string(), resume);
  return 1;
}

// The files written as the run starts: context.json's opening facts (--resume, --filter: the
// first run's start, host and clocks stay) and counters.json (each solver's counters).
static nlohmann::json open_context(const fs::path& file, const RunPlan& plan,
                                   const ResultsFolder& folder, const std::vector<Lane>& lanes,
                                   const std::optional<ClockLock>& clock_lock,
                                   const std::string& filter) {
  const fs::path& out = folder.dir();
  nlohmann::json context = start_context(file, plan, folder.committed_count(), lanes);
  if (clock_lock) context["clocks"] = clock_lock->facts();
  // The cases this run was asked for (verify: the rest of the plan is not missing), also
  // when the command line is another's (reproduce runs experiments in-process).
  if (!filter.empty()) context["filter"] = filter;
  keep_earlier_runs(context, out);
  write_file_atomically(out / "context.json", context.dump(2) + "\n");
  write_counter_declarations(out, plan);
  return context;
}

// A write that failed as the run started (a full disk, a file size limit): said with the
// command that continues once there is room; exit 1.
static int start_failed(const std::string& what, const ResultsFolder* folder,
                        const std::string& resume) {
  if (folder) folder->remove_temporary_files();
  std::cerr << fmt::format(
      "error: {}\nthe run stopped before measuring anything; committed cases are kept; free "
      "space and continue with:\n  {}\n",
      what, resume);
  return 1;
}

// Measures the cases left into `folder`, committing each; the run's exit code.
static int measure_into(ResultsFolder& folder, const fs::path& file, const RunOptions& opt,
                        const RunPlan& plan, const std::vector<Lane>& lanes,
                        const std::optional<ClockLock>& clock_lock) {
  const fs::path& out = folder.dir();
  const std::string resume = resume_command(file, opt, out, plan.shard ? plan.shard->str() : "");
  const ProfileSettings profiling = profile_settings(plan.shared(), opt);
  nlohmann::json context;
  std::vector<std::unique_ptr<Reporter>> files;
  Rebuilder rebuild(files, plan, folder);
  try {
    context = open_context(file, plan, folder, lanes, clock_lock, opt.filter);
    files = output_reporters(out, context, profiling.on, plan.shared().series);
    rebuild.now();
  } catch (const WriteError& e) {
    return start_failed(e.what(), &folder, resume);
  }
  auto progress = progress_reporter(std::cerr);
  const std::vector<const CaseSpec*> todo = cases_to_run(plan, folder, opt.resume);
  const auto started = Clock::now();
  Progress p;
  p.total = plan.selected.size();
  p.done = p.total - todo.size();
  TimeLeft time_left(todo);  // by each case's work, not by count (time_left.hpp)
  count_lanes(time_left, lanes);
  std::size_t ran = 0;
  std::string write_failed;  // a full disk, a file size limit, the folder moved: the run stops
  auto commit = [&](CaseRecord rec) {
    if (!write_failed.empty()) return;
    ++ran, ++p.done;
    time_left.finished(rec.spec, rec.wall_s);
    p.elapsed_s = seconds_since(started);
    p.left_s = time_left.seconds();
    progress->case_finished(rec, p);
    try {
      folder.check_in_place();
      folder.commit(std::move(rec));
      rebuild.maybe();
    } catch (const WriteError& e) {
      write_failed = e.what();
      return;
    }
    if (!folder.removed_figures().empty() && ran == 1)
      std::cerr << "removed " << folder.removed_figures().string()
                << ": its figures were drawn from data that changed (redraw with dpgpu plot)\n";
  };
  run_cases(todo, lanes, profiling, commit,
            [&] { return stop_requested() != 0 || !write_failed.empty(); });
  if (auto failed = close_results(folder, rebuild, context, out, write_failed, resume))
    return *failed;
  const int code = tally(plan.name(), folder.in_plan_order(plan),
                         plan.shard ? plan.shard_cases.size() : plan.cases.size(),
                         plan.shard ? " of shard " + plan.shard->str() : "", out.string());
  if (int sig = stop_requested()) return stopped(sig, p, resume);
  finish_filter(plan, folder);
  return code;
}

int run_experiment(const fs::path& file, const RunOptions& given) {
  RunOptions opt = given;  // --resume of an unfinished --filter rerun takes its filter
  if (opt.resume && opt.fresh)
    throw InputError("--resume and --fresh exclude each other: continue, or start over");
  RunPlan plan = make_plan(
      file, {.filter = opt.filter,
             .repetitions = opt.repetitions,
             .max_cases = opt.max_cases,
             .shard = opt.shard.empty() ? std::nullopt : std::optional(parse_shard(opt.shard)),
             .verbose = opt.verbose,
             .share_gpus = opt.share_gpus,
             .sets = opt.sets});
  if (opt.dry_run) {
    print_case_table(std::cout, plan, plan.selected);
    return 0;
  }
  const std::vector<Lane> lanes = lanes_of(opt, plan);
  // Locked clocks, held until this returns (clock_lock.hpp: every other way out); refused early.
  const ClockRequest clocks =
      opt.lock_clocks.empty() ? plan.shared().clocks : parse_lock_clocks(opt.lock_clocks);
  std::optional<ClockLock> clock_lock;
  if (clocks.any()) clock_lock.emplace(clocks);
  const fs::path out = results_path(plan, opt);
  // Opening the folder may write (the journal repaired, the derived files rebuilt): a file
  // size limit reached there is a write that fails with the resume command, not a SIGXFSZ
  // kill that leaves the holder file and a temporary journal (the handlers come later).
  signal(SIGXFSZ, SIG_IGN);
  std::optional<ResultsFolder> folder;
  try {
    folder.emplace(out, plan,
                   FolderOptions{opt.resume, opt.fresh, !opt.filter.empty() && !opt.resume,
                                 opt.filter, measuring_conditions(plan, lanes)});
  } catch (const WriteError& e) {
    return start_failed(e.what(), nullptr,
                        resume_command(file, opt, out, plan.shard ? plan.shard->str() : ""));
  }
  continue_filter(plan, opt, *folder);
  if (!folder->moved_aside().empty())
    std::cerr << "old results moved to " << folder->moved_aside().string() << "\n";
  install_interrupt_handlers();
  return measure_into(*folder, file, opt, plan, lanes, clock_lock);
}

}  // namespace dpgpu
