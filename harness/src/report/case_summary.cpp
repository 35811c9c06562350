#include "report/case_summary.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "measure/summary.hpp"
#include "results/record_rows.hpp"

namespace dpgpu {

namespace {

std::string num(double x) { return fmt::format("{:.6g}", x); }

// The worst status wins: a case is ok only when every repetition was.
int severity(const std::string& s) {
  static const std::map<std::string, int> order{{"ok", 0},      {"skipped", 1}, {"invalid", 2},
                                                {"timeout", 3}, {"oom", 4},     {"error", 5}};
  auto it = order.find(s);
  return it == order.end() ? 5 : it->second;
}

// What the rows say of the case: identity, worst status, validity, first message.
CsvRow verdict_columns(const std::vector<CsvRow>& rows) {
  const CsvRow& first = rows.front();
  CsvRow out;
  for (auto key : {"experiment", "case_id", "problem", "instance", "seed", "solver", "backend",
                   "work", "objective", "known_optimum"})
    if (auto it = first.find(key); it != first.end()) out[key] = it->second;
  for (auto& [k, v] : first)
    if (k.rfind("i.", 0) == 0 || k.rfind("s.", 0) == 0 || k.rfind("gpu.", 0) == 0) out[k] = v;
  std::string status = "ok", message;
  std::set<std::string> validity;  // of the rows that ran: true, agreed, false, n/a
  for (auto& r : rows) {
    auto st = r.count("status") ? r.at("status") : "error";
    if (severity(st) > severity(status)) status = st;
    if (message.empty() && r.count("message")) message = r.at("message");
    if (r.count("valid") && !r.at("valid").empty()) validity.insert(r.at("valid"));
  }
  out["status"] = status;
  // false wins; n/a when nothing checked an answer; empty when no repetition ran.
  out["valid"] = validity.count("false")    ? "false"
                 : validity.count("n/a")    ? "n/a"
                 : validity.count("agreed") ? "agreed"
                 : validity.count("true")   ? "true"
                                            : "";
  out["message"] = message;
  return out;
}

}  // namespace

std::optional<double> median_work(const CaseRecord& rec) {
  // A search's work (its nodes) may differ run to run: the summary takes the median.
  std::vector<double> works;
  for (auto& rep : rec.result.reps)
    if (counted(rep))
      if (auto w = work_of(rec.spec, rep)) works.push_back(*w);
  if (!works.empty()) return median_of(works);
  if (rec.spec.work_counter.empty()) return rec.spec.work;
  return std::nullopt;
}

CaseStats recorded_time_stats(const CaseRecord& rec) {
  std::vector<double> times;
  for (auto& rep : rec.result.reps)
    if (counted(rep)) times.push_back(as_recorded(rep.time_s, kTimeDigits));
  return case_stats(times, rec.spec.measure.max_noise.value_or(0));
}

CsvRow case_summary(const CaseRecord& rec, const std::vector<CsvRow>& run_rows) {
  CsvRow out = verdict_columns(run_rows);
  const CaseResult& res = rec.result;
  const CaseStats t = recorded_time_stats(rec);
  out["reps"] = std::to_string(t.n);
  const std::optional<double> work = median_work(rec);
  if (work) out["work"] = fmt::format("{:.17g}", *work);
  std::vector<double> harness;
  std::map<std::string, std::vector<double>> metrics;  // phases and counters
  for (auto& rep : res.reps) {                         // at runs.csv's precision, as the times
    if (!counted(rep)) continue;
    harness.push_back(as_recorded(rep.harness_s, kHarnessDigits));
    for (auto& [k, v] : rep.phases)
      metrics["phase." + k + "_s"].push_back(as_recorded(v, kTimeDigits));
    for (auto& [k, v] : rep.counters) metrics["c." + k].push_back(v);
  }
  if (t.n > 0) {
    out["time_median_s"] = num(t.median);
    out["time_min_s"] = num(t.min);
    out["time_max_s"] = num(t.max);
    out["time_mean_s"] = num(t.mean);
    out["time_rsd"] = num(t.rsd);
    // The verdict itself, so that report, compare and the figures read it, not re-derive it.
    out["time_noise"] = !t.noise.measured ? "n/a" : t.noise.noisy ? "noisy" : "steady";
    if (work && t.median > 0) out["throughput"] = num(*work / t.median);
    // Per repetition: harness work around the solve; once per case: set-up and reporting,
    // spread over the repetitions (as runs.csv's harness_case_s).
    if (t.median > 0) {
      out["harness_overhead"] = num(median_of(harness) / t.median);
      out["harness_case_overhead"] =
          num(as_recorded(res.fixed_s / double(res.reps.size()), kHarnessDigits) / t.median);
    }
  }
  for (auto& [k, v] : metrics) out[k] = summary_number(median_of(v), v);
  return out;
}

}  // namespace dpgpu
