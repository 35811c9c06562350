#include "dpgpu/runner.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>

#include "case_result.hpp"
#include "csv_table.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/experiment.hpp"
#include "host_info.hpp"
#include "instances.hpp"
#include "isolate.hpp"
#include "measure.hpp"
#include "gpu_monitor.hpp"
#include "profiler.hpp"
#include "summary.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

using Clock = std::chrono::steady_clock;

// One instance × solver point, with what decides whether and how it runs.
struct Case {
  std::string id;
  std::size_t instance_point, loaded_index, solver_point;
  const AnyInstance* instance;
  const SolverPoint* solver;
  std::string skip;    // non-empty: recorded as skipped with this reason
  std::string refuse;  // non-empty: recorded as oom with this reason
};

std::string cap_violation(const SolverSpec& spec, const AnyInstance& x, const InstancePoint& p) {
  for (auto& [key, cap] : spec.max) {
    double v;
    if (auto it = x.dims.find(key); it != x.dims.end())
      v = to_number(it->second);
    else if (auto jt = p.params.values().find(key); jt != p.params.values().end())
      v = to_number(jt->second);
    else
      continue;
    if (v > cap) return fmt::format("{}={} is above this solver's max {}={}", key, v, key, cap);
  }
  return {};
}

bool isolated(const Experiment& e, const SolverEntry& s) {
  if (e.isolate == "always") return true;
  if (e.isolate == "never") return false;
  return s.backend == Backend::Gpu;
}

// The fields every row of a case shares.
CsvRow case_row(const Experiment& e, const Case& c, const InstancePoint& ip) {
  CsvRow r;
  r["experiment"] = e.name;
  r["case_id"] = c.id;
  r["problem"] = e.problem;
  r["instance"] = c.instance->name.empty() ? ip.label : c.instance->name;
  if (ip.seed || !e.instances[ip.source].generator.empty()) r["seed"] = std::to_string(ip.seed);
  r["solver"] = c.solver->solver->name;
  r["backend"] = c.solver->solver->backend == Backend::Gpu ? "gpu" : "cpu";
  r["work"] = fmt::format("{:.17g}", c.instance->work);
  for (auto& [k, v] : ip.params.values()) r["i." + k] = to_string(v);
  for (auto& [k, v] : c.instance->dims) r["i." + k] = to_string(v);
  for (auto& [k, v] : c.solver->params.values()) r["s." + k] = to_string(v);
  return r;
}

// GPU clocks and temperature at the case's start and end, and a warning when it throttled.
void add_gpu_samples(CsvRow& r, const CaseResult& res) {
  if (res.gpu_start.is_null() || res.gpu_end.is_null()) return;
  auto sample = [](const nlohmann::json& j) {
    GpuSample s;
    s.sm_clock_mhz = j.value("sm_clock_mhz", 0u);
    s.memory_clock_mhz = j.value("memory_clock_mhz", 0u);
    s.temperature_c = j.value("temperature_c", 0u);
    s.reasons = j.value("reasons", 0ull);
    return s;
  };
  GpuSample a = sample(res.gpu_start), b = sample(res.gpu_end);
  r["gpu.sm_clock_start_mhz"] = std::to_string(a.sm_clock_mhz);
  r["gpu.sm_clock_end_mhz"] = std::to_string(b.sm_clock_mhz);
  r["gpu.temperature_start_c"] = std::to_string(a.temperature_c);
  r["gpu.temperature_end_c"] = std::to_string(b.temperature_c);
  r["gpu.throttle"] = throttle_warning(a, b);
}

std::vector<CsvRow> rows_of(const CsvRow& base, const CaseResult& res) {
  std::vector<CsvRow> rows;
  // Per repetition: harness work around the solve; once per case: set-up and reporting.
  const double fixed_per_rep = res.reps.empty() ? 0 : res.fixed_s / double(res.reps.size());
  for (auto& rep : res.reps) {
    CsvRow r = base;
    r["rep"] = std::to_string(rep.rep);
    r["status"] = to_string(rep.status);
    r["message"] = rep.message;
    if (rep.status == Status::Ok || rep.status == Status::Invalid) {
      if (rep.valid) r["valid"] = *rep.valid ? "true" : "false";
      r["objective"] = std::to_string(rep.objective);
      r["time_s"] = fmt::format("{:.9g}", rep.time_s);
      if (rep.time_s > 0) r["throughput"] = fmt::format("{:.6g}", std::stod(base.at("work")) / rep.time_s);
      r["harness_s"] = fmt::format("{:.6g}", rep.harness_s);
      r["harness_case_s"] = fmt::format("{:.6g}", fixed_per_rep);
      if (rep.checksum) r["checksum"] = std::to_string(*rep.checksum);
      add_gpu_samples(r, res);
      for (auto& [k, v] : rep.phases) r["phase." + k + "_s"] = fmt::format("{:.9g}", v);
      for (auto& [k, v] : rep.counters) r["c." + k] = fmt::format("{:.17g}", v);
    }
    rows.push_back(std::move(r));
  }
  if (res.status != Status::Ok && (rows.empty() || res.reps.back().status == Status::Ok)) {
    CsvRow r = base;
    r["rep"] = std::to_string(res.reps.size());
    r["status"] = to_string(res.status);
    r["message"] = res.message;
    rows.push_back(std::move(r));
  }
  return rows;
}

CsvRow status_row(const CsvRow& base, Status s, const std::string& message) {
  CsvRow r = base;
  r["rep"] = "0";
  r["status"] = to_string(s);
  r["message"] = message;
  return r;
}

// Objectives (and checksums) of every solver of one instance must agree: otherwise every
// row of that instance is marked invalid, naming what each solver said.
bool mark_disagreements(std::vector<CsvRow>& rows, const std::set<std::string>& case_ids) {
  std::map<std::string, std::set<std::string>> said;  // "objective"/"checksum" → values
  std::map<std::string, std::string> by_solver;
  for (auto& r : rows) {
    if (!case_ids.count(r["case_id"]) || !r.count("objective") || r["objective"].empty()) continue;
    said["objective"].insert(r["objective"]);
    if (r.count("checksum") && !r["checksum"].empty()) said["checksum"].insert(r["checksum"]);
    by_solver[r["case_id"]] = r["objective"];
  }
  if (said["objective"].size() <= 1 && said["checksum"].size() <= 1) return false;
  std::vector<std::string> parts;
  for (auto& [id, obj] : by_solver) parts.push_back(id.substr(id.rfind('/') + 1) + "=" + obj);
  std::string why = fmt::format("solvers disagree on this instance: {}", fmt::join(parts, ", "));
  for (auto& r : rows)
    if (case_ids.count(r["case_id"]) && (r["status"] == "ok" || r["status"] == "invalid")) {
      r["status"] = "invalid";
      r["valid"] = "false";
      r["message"] = r["message"].empty() ? why : r["message"] + "; " + why;
    }
  return true;
}

const std::vector<std::string>& metric_columns() {
  static const std::vector<std::string> c{"experiment", "case_id",  "problem",  "instance",          "solver",
                                          "kernel",     "metric",   "ncu_metric", "unit",            "min",
                                          "mean",       "max",      "launches_profiled", "launches_total",
                                          "sampling",   "status",   "message",  "profile_wall_s",    "profile_cost_x",
                                          "case_timed_wall_s", "profile_cost_case_x"};
  return c;
}

// series.csv: one row per point of the extra series run; a failed or empty series run says why.
void append_series(CsvTable& table, const std::string& case_id, const std::string& solver, const CaseResult& res) {
  if (!res.series_message.empty()) std::cerr << "  " << res.series_message << "\n";
  std::vector<CsvRow>& rows = table.mutable_rows();
  for (auto& p : res.series)
    rows.push_back({{"case_id", case_id}, {"solver", solver}, {"series", p.name},
                    {"index", std::to_string(p.index)}, {"value", fmt::format("{}", p.value)}});
  if (!res.series.empty()) table.rewrite();
}

// summary.csv gains m.<metric>: the mean over every profiled launch of the case.
void merge_metric_means(std::vector<CsvRow>& summary, const std::vector<CsvRow>& metrics) {
  std::map<std::string, std::map<std::string, std::pair<double, double>>> acc;  // case → metric → (Σ, n)
  for (auto& m : metrics) {
    if (m.count("status") == 0 || m.at("status") != "ok") continue;
    double n = std::stod(m.at("launches_profiled"));
    auto& a = acc[m.at("case_id")][m.at("metric")];
    a.first += std::stod(m.at("mean")) * n;
    a.second += n;
  }
  for (auto& row : summary) {
    auto it = acc.find(row["case_id"]);
    if (it == acc.end()) continue;
    for (auto& [metric, a] : it->second)
      if (a.second > 0) row["m." + metric] = fmt::format("{:.6g}", a.first / a.second);
  }
}

// cost_x: profiling time over one timed run (the case's wall time per solve, process start-up
// included); the whole timed pass of the case (warm-ups and repetitions) is case_wall_s.
std::vector<CsvRow> metric_rows(const CsvRow& base, const ProfileOutcome& po, const ProfilePlan& plan,
                                double launches_total, double cost_x, double case_wall_s) {
  std::vector<CsvRow> rows;
  CsvRow common;
  for (auto key : {"experiment", "case_id", "problem", "instance", "solver"})
    if (base.count(key)) common[key] = base.at(key);
  common["sampling"] = plan.sampling;
  common["launches_total"] = fmt::format("{:.0f}", launches_total);
  common["profile_wall_s"] = fmt::format("{:.3f}", po.wall_s);
  if (cost_x > 0) common["profile_cost_x"] = fmt::format("{:.3g}", cost_x);
  if (case_wall_s > 0) {
    common["case_timed_wall_s"] = fmt::format("{:.3f}", case_wall_s);
    common["profile_cost_case_x"] = fmt::format("{:.3g}", po.wall_s / case_wall_s);
  }
  if (!po.ok) {
    CsvRow r = common;
    r["status"] = "error";
    r["message"] = po.message;
    rows.push_back(std::move(r));
    return rows;
  }
  for (auto& st : po.stats) {
    CsvRow r = common;
    r["kernel"] = st.kernel;
    r["metric"] = st.metric;
    r["ncu_metric"] = st.ncu_metric;
    r["unit"] = st.unit;
    r["min"] = fmt::format("{:.6g}", st.min);
    r["mean"] = fmt::format("{:.6g}", st.mean);
    r["max"] = fmt::format("{:.6g}", st.max);
    r["launches_profiled"] = std::to_string(st.count);
    r["status"] = "ok";
    r["message"] = po.message;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.0f}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", int(s) / 60, int(s) % 60);
  return fmt::format("{}h{:02}m", int(s) / 3600, int(s) % 3600 / 60);
}

void ensure_writable(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(fmt::format("cannot create output folder {}: {}", dir.string(), ec.message()));
  auto probe = dir / ".dpgpu-write-test";
  {
    FILE* f = std::fopen(probe.c_str(), "w");
    if (!f) throw InputError(fmt::format("output folder {} is not writable: {}", dir.string(), std::strerror(errno)));
    std::fclose(f);
  }
  fs::remove(probe, ec);
}

}  // namespace

int run_experiment(const fs::path& file, const RunOptions& opt) {
  const std::vector<Experiment> parts = parse_experiment_parts(file);
  std::vector<Plan> plans;
  for (auto& part : parts) plans.push_back(expand(part));
  const Experiment& shared = parts.front();  // the keys every part shares (all but problem, instances, solvers)
  const int reps = opt.repetitions.value_or(int(shared.repetitions));
  if (reps < 1) throw InputError("--repetitions must be at least 1");
  const int max_reps = std::max(reps, int(shared.max_repetitions));
  std::optional<std::regex> filter;
  if (!opt.filter.empty()) {
    try {
      filter.emplace(opt.filter);
    } catch (const std::regex_error& err) {
      throw InputError(fmt::format("--filter '{}' is not a valid regular expression: {}", opt.filter, err.what()));
    }
  }
  const fs::path out = opt.out.empty() ? fs::path("results") / shared.name : opt.out;
  const std::string no_gpu = gpu_unavailable_reason();

  CsvTable runs(out / "runs.csv", run_columns());
  CsvTable summary(out / "summary.csv", summary_columns());
  CsvTable metrics(out / "metrics.csv", metric_columns());
  CsvTable series(out / "series.csv", {"case_id", "solver", "series", "index", "value"});
  const bool profiling = !opt.no_profile && (opt.profile || shared.profile.has_value());
  const std::vector<MetricName> metric_names =
      resolve_metrics(shared.profile && !shared.profile->metrics.empty() ? shared.profile->metrics : default_metrics());
  const std::int64_t max_launches = shared.profile ? shared.profile->max_launches : ProfileSpec{}.max_launches;
  const NcuOptions ncu_options =
      shared.profile ? NcuOptions{shared.profile->cache_control, shared.profile->replay} : NcuOptions{};
  auto resummarize = [&] {
    auto rows = summarize(runs.rows());
    merge_metric_means(rows, metrics.rows());
    summary.replace_all(std::move(rows));
  };
  std::set<std::string> finished;
  nlohmann::json benchmarks = nlohmann::json::array(), bench_context;
  nlohmann::json context;
  if (!opt.dry_run) {
    ensure_writable(out);
    if (opt.resume) {
      for (auto& r : runs.load()) finished.insert(r["case_id"]);
      metrics.load();
      if (shared.series && fs::exists(out / "series.csv")) series.load();
      std::ifstream old(out / "benchmark.json");
      if (old) try {
          auto j = nlohmann::json::parse(old);
          benchmarks = j.value("benchmarks", nlohmann::json::array());
          bench_context = j.value("context", nlohmann::json());
        } catch (...) {
        }
    } else {
      runs.replace_all({});
      if (profiling) metrics.replace_all({});
      if (shared.series) series.replace_all({});
    }
    write_file_atomically(out / "experiment.yaml", shared.source_text);
    context = {{"experiment", shared.name}, {"experiment_file", fs::absolute(file).string()},
               {"start", now_iso8601()},  {"git_commit", git_commit()},
               {"host", host_facts()},    {"gpu", gpu_facts()},
               {"gpu_clocks_start", gpu_clock_reading()}, {"repetitions", reps},
               {"warmup", shared.warmup}, {"timeout_s", shared.timeout_s}};
    write_file_atomically(out / "context.json", context.dump(2) + "\n");
  }

  // Cases for the progress line; a file holding several instances adds its extra ones as it loads.
  std::size_t total = 0, done = 0;
  for (auto& plan : plans) total += plan.instances.size() * plan.solvers.size();
  std::map<std::string, int> tally;
  std::vector<std::string> failures;
  const auto started = Clock::now();

  for (std::size_t pi = 0; pi < parts.size(); ++pi) {
    const Experiment& e = parts[pi];  // this part's problem, instances and solvers
    const Plan& plan = plans[pi];
    const ProblemEntry* problem = Registry::get().problem(e.problem);
    for (std::size_t ii = 0; ii < plan.instances.size(); ++ii) {
      const InstancePoint& ip = plan.instances[ii];
      std::vector<AnyInstance> loaded;
      std::string load_error;
      try {
        loaded = materialize(e, *problem, ip);
      } catch (const InputError& err) {
        load_error = err.what();
        std::cerr << "error: " << load_error << "\n";
        loaded.push_back(AnyInstance{ip.label, nullptr, {}, 0, std::nullopt});
      }
      if (loaded.size() > 1) total += (loaded.size() - 1) * plan.solvers.size();
      for (std::size_t li = 0; li < loaded.size(); ++li) {
        const AnyInstance& x = loaded[li];
        std::set<std::string> instance_cases;
        for (std::size_t si = 0; si < plan.solvers.size(); ++si) {
          const SolverPoint& sp = plan.solvers[si];
          Case c{ip.label + (loaded.size() > 1 ? "/" + x.name : "") + "/" + sp.label, ii, li, si, &x, &sp, {}, {}};
          ++done;
          if (filter && !std::regex_search(c.id, *filter)) continue;
          if (finished.count(c.id)) continue;
          const SolverEntry& s = *sp.solver;
          if (!load_error.empty())
            c.refuse = load_error;
          else if (!s.unavailable.empty())
            c.skip = s.unavailable;
          else if (s.backend == Backend::Gpu && !no_gpu.empty())
            c.skip = no_gpu;
          else if (auto cap = cap_violation(e.solvers[sp.spec], x, ip); !cap.empty())
            c.skip = cap;
          else {
            CaseJob probe{.problem = problem, .solver = &s, .instance = &x, .params = sp.params, .name = c.id};
            c.refuse = memory_refusal(probe, /*check_device=*/false);
          }

          if (opt.dry_run) {
            std::cout << fmt::format("{:>5}  {}  {}\n", done,
                                     !c.skip.empty() ? "skip" : (!c.refuse.empty() ? "refuse" : "run "), c.id)
                      << (!c.skip.empty() ? "         " + c.skip + "\n" : "")
                      << (!c.refuse.empty() ? "         " + c.refuse + "\n" : "");
            continue;
          }

          CsvRow base = load_error.empty() ? case_row(e, c, ip) : CsvRow{{"experiment", e.name}, {"case_id", c.id}};
          std::vector<CsvRow> rows;
          auto case_start = Clock::now();
          if (!load_error.empty()) {
            rows.push_back(status_row(base, Status::Error, load_error));
          } else if (!c.skip.empty()) {
            rows.push_back(status_row(base, Status::Skipped, c.skip));
          } else if (!c.refuse.empty()) {
            rows.push_back(status_row(base, Status::Oom, c.refuse));
          } else {
            CaseResult res;
            if (isolated(e, s)) {
              WorkerRequest req{fs::absolute(file).string(), ii, li, si, reps, int(e.warmup), max_reps, e.timeout_s,
                                opt.verbose, true, pi};
              res = run_in_child(req);
            } else {
              CaseJob job{problem, &s, &x, sp.params, c.id, reps, max_reps, e.max_noise, e.cold, e.series,
                          int(e.warmup), e.timeout_s, opt.verbose};
              res = measure_case(job);
            }
            append_series(series, c.id, s.name, res);
            for (auto& b : res.benchmarks) benchmarks.push_back(b);
            if (bench_context.is_null() && !res.benchmark_context.is_null()) bench_context = res.benchmark_context;
            rows = rows_of(base, res);
            const double case_wall = std::chrono::duration<double>(Clock::now() - case_start).count();
            if (profiling && s.backend == Backend::Gpu && res.status == Status::Ok && !res.reps.empty()) {
              auto& cnt = res.reps.front().counters;
              double launches = cnt.count("kernel_launches") ? cnt.at("kernel_launches") : 0;
              double marked = cnt.count("annotated_launches") ? cnt.at("annotated_launches") : 0;
              ProfilePlan plan = plan_profile(max_launches, launches, marked);
              WorkerRequest req{fs::absolute(file).string(), ii, li, si, 1, 0, 1, e.timeout_s, opt.verbose, false, pi};
              ProfileOutcome po = profile_case(req, metric_names, plan, ncu_options);
              // Against one timed run in its own process (start-up included), as profiling is.
              double one_run = case_wall / double(reps + e.warmup);
              for (auto& m : metric_rows(base, po, plan, launches, one_run > 0 ? po.wall_s / one_run : 0, case_wall))
                metrics.append(m);
              std::cerr << (po.ok ? fmt::format("  profiled {} launches ({}) in {:.1f} s{}\n", po.launches_profiled,
                                                plan.sampling, po.wall_s, po.message.empty() ? "" : ": " + po.message)
                                  : "  profiling failed: " + po.message + "\n");
            }
          }
          for (auto& r : rows) runs.append(r);
          instance_cases.insert(c.id);
          resummarize();

          auto final_row = summarize(rows).front();
          std::string st = final_row["status"];
          double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
          double left = done ? elapsed / double(done) * double(total - done) : 0;
          std::string timing = final_row.count("time_median_s") && !final_row["time_median_s"].empty()
                                   ? fmt::format(" {:.4g} ms (median of {})", std::stod(final_row["time_median_s"]) * 1e3,
                                                 final_row["reps"])
                                   : "";
          std::cerr << fmt::format("[{}/{}] {} {}{}{}  ~{} left\n", done, total, c.id, st, timing,
                                   st == "ok" ? "" : ": " + final_row["message"], duration_text(left));
        }
        // Cross-solver agreement on this instance.
        if (!opt.dry_run && instance_cases.size() > 1 && mark_disagreements(runs.mutable_rows(), instance_cases)) {
          runs.rewrite();
          resummarize();
          std::cerr << "invalid: solvers disagree on " << x.name << "\n";
        }
      }
    }
  }
  if (opt.dry_run) return 0;

  nlohmann::json bench{{"context", bench_context.is_null() ? nlohmann::json::object() : bench_context},
                       {"benchmarks", benchmarks}};
  write_file_atomically(out / "benchmark.json", bench.dump(2) + "\n");
  context["end"] = now_iso8601();
  context["gpu_clocks_end"] = gpu_clock_reading();
  write_file_atomically(out / "context.json", context.dump(2) + "\n");

  for (auto& r : summary.rows()) {
    tally[r.at("status")]++;
    if (r.at("status") != "ok" && r.at("status") != "skipped")
      failures.push_back(fmt::format("  {} {}: {}", r.at("status"), r.at("case_id"),
                                     r.count("message") ? r.at("message") : ""));
  }
  std::vector<std::string> counts;
  for (auto& [k, v] : tally) counts.push_back(fmt::format("{} {}", v, k));
  std::cerr << fmt::format("{}: {} cases ({}); results in {}\n", shared.name, summary.rows().size(),
                           fmt::join(counts, ", "), out.string());
  for (auto& f : failures) std::cerr << f << "\n";
  return failures.empty() ? 0 : 1;
}

int check_experiment(const fs::path& file) {
  std::size_t n = 0;
  const std::vector<Experiment> parts = parse_experiment_parts(file);
  for (const Experiment& e : parts) {
    Plan plan = expand(e);
    const ProblemEntry* problem = Registry::get().problem(e.problem);
    std::size_t cases = 0;
    for (std::size_t ii = 0; ii < plan.instances.size(); ++ii) {
      auto loaded = materialize(e, *problem, plan.instances[ii]);  // throws on bad input
      for (auto& x : loaded)
        for (auto& sp : plan.solvers) {
          std::string id = plan.instances[ii].label + (loaded.size() > 1 ? "/" + x.name : "") + "/" + sp.label;
          std::string note = cap_violation(e.solvers[sp.spec], x, plan.instances[ii]);
          if (note.empty()) note = sp.solver->unavailable;
          std::cout << fmt::format("{:>5}  {}{}\n", ++n, id, note.empty() ? "" : "   (skipped: " + note + ")");
          ++cases;
        }
    }
    std::cout << fmt::format("{}{}: {} instances x {} solver points = {} cases, {} repetitions each\n", e.name,
                             parts.size() > 1 ? fmt::format(" part {} ({})", e.part, e.problem) : "",
                             plan.instances.size(), plan.solvers.size(), cases, e.repetitions);
  }
  return 0;
}

}  // namespace dpgpu
