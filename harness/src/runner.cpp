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

// The exit code and the closing lines: counts by status, then every case that failed.
int tally(const RunPlan& plan, const ResultsFolder& folder, const std::string& out) {
  const Records records = folder.in_plan_order(plan);
  const auto disagree = disagreements(records);
  std::map<std::string, int> counts;
  std::vector<std::string> failures;
  int planned_oom = 0;
  for (const CaseRecord* r : records) {
    const Status s = effective_status(*r, disagree);
    counts[to_string(s)]++;
    if (s == Status::Oom && r->result.refused) ++planned_oom;
    if (!is_failure(*r, s)) continue;
    std::string why = r->result.message;
    for (auto& rep : r->result.reps)
      if (why.empty() && !rep.message.empty()) why = rep.message;
    if (auto it = disagree.find(instance_group(r->spec)); why.empty() && it != disagree.end())
      why = it->second;
    failures.push_back(fmt::format("  {} {}: {}", to_string(s), r->spec.id, why));
  }
  std::vector<std::string> parts;
  for (auto& [k, v] : counts)
    parts.push_back(k == "oom" && planned_oom ? fmt::format("{} oom ({} refused before running: not failures)", v, planned_oom)
                                              : fmt::format("{} {}", v, k));
  std::cerr << fmt::format("{}: {} of {} cases recorded ({}); results in {}\n", plan.name(), records.size(),
                           plan.cases.size(), fmt::join(parts, ", "), out);
  for (auto& f : failures) std::cerr << f << "\n";
  return failures.empty() ? 0 : 1;
}

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
  const RunPlan plan = make_plan(file, {opt.filter, opt.repetitions, opt.max_cases, opt.verbose});
  if (opt.dry_run) {
    print_dry_run(plan);
    return 0;
  }
  const Experiment& shared = plan.shared();
  const fs::path out = opt.out.empty() ? fs::path("results") / shared.name : opt.out;
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
  write_file_atomically(out / "context.json", context.dump(2) + "\n");

  std::vector<std::unique_ptr<Reporter>> files;
  files.push_back(csv_reporter(out));
  files.push_back(summary_reporter(out));
  nlohmann::json bench_context{{"date", context["start"]},
                               {"host_name", context["host"].value("hostname", "")},
                               {"executable", fs::read_symlink("/proc/self/exe").string()},
                               {"num_cpus", context["host"].value("cores", 0)},
                               {"mhz_per_cpu", 0},
                               {"cpu_scaling_enabled", false},
                               {"caches", nlohmann::json::array()},
                               {"library_build_type", "release"},
                               {"dpgpu_experiment", shared.name}};
  files.push_back(benchmark_json_reporter(out, bench_context));
  if (profiling.on) files.push_back(metrics_reporter(out));
  if (shared.series) files.push_back(series_reporter(out));
  auto progress = progress_reporter(std::cerr);
  Rebuilder rebuild(files, plan, folder);
  rebuild.now();

  const auto started = Clock::now();
  Progress p;
  p.total = plan.selected.size();
  std::size_t ran = 0;
  for (std::size_t i : plan.selected) {
    if (stop_requested()) break;
    const CaseSpec& spec = plan.cases[i];
    ++p.done;
    if (opt.resume && folder.committed(spec.id)) continue;
    CaseRecord rec = run_case(spec, profiling);
    ++ran;
    p.elapsed_s = seconds_since(started);
    p.left_s = p.elapsed_s / double(ran) * double(p.total - p.done);
    progress->case_finished(rec, p);
    folder.commit(std::move(rec));
    if (!folder.removed_figures().empty() && ran == 1)
      std::cerr << "removed " << folder.removed_figures().string()
                << ": its figures were drawn from data that changed (redraw with dpgpu plot)\n";
    rebuild.maybe();
  }
  rebuild.now();
  finish_context(context);
  write_file_atomically(out / "context.json", context.dump(2) + "\n");

  const int code = tally(plan, folder, out.string());
  if (int sig = stop_requested()) {
    std::cerr << fmt::format("stopped by signal {} after {} of {} cases; continue with:\n  dpgpu run {} --out {} --resume\n",
                             sig, p.done, p.total, file.string(), out.string());
    return 128 + sig;
  }
  return code;
}

int check_experiment(const fs::path& file, std::uint64_t max_cases) {
  PlanOptions opt;
  opt.max_cases = max_cases;
  const RunPlan plan = make_plan(file, opt);
  std::size_t n = 0;
  std::map<std::size_t, std::size_t> cases_of_part;
  for (const CaseSpec& c : plan.cases) {
    std::string note = c.decision == Decision::Run ? "" : fmt::format("   ({}: {})", c.decision == Decision::Skip ? "skipped" : "refused", c.reason);
    std::cout << fmt::format("{:>5}  {}{}\n", ++n, c.id, note);
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
  return 0;
}

}  // namespace dpgpu
