#include "measure/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace dpgpu {

const std::vector<std::string>& run_columns() {
  static const std::vector<std::string> c{"experiment", "case_id", "problem",   "instance", "seed",
                                          "solver",     "backend", "rep",       "status",   "valid",
                                          "objective",  "known_optimum", "time_s",  "work",  "throughput", "message"};
  return c;
}

const std::vector<std::string>& summary_columns() {
  static const std::vector<std::string> c{
      "experiment",    "case_id",     "problem",     "instance",    "seed",     "solver",     "backend",
      "status",        "valid",       "objective",   "known_optimum", "reps",        "work",     "time_median_s",
      "time_min_s",    "time_max_s",  "time_mean_s", "time_rsd",    "throughput", "harness_overhead",
      "harness_case_overhead", "message"};
  return c;
}

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string num(double x) { return fmt::format("{:.6g}", x); }

// The worst status wins: a case is ok only when every repetition was.
int severity(const std::string& s) {
  static const std::map<std::string, int> order{{"ok", 0},     {"skipped", 1}, {"invalid", 2},
                                                {"timeout", 3}, {"oom", 4},     {"error", 5}};
  auto it = order.find(s);
  return it == order.end() ? 5 : it->second;
}

CsvRow summarize_case(const std::vector<const CsvRow*>& reps) {
  const CsvRow& first = *reps.front();
  CsvRow out;
  for (auto key : {"experiment", "case_id", "problem", "instance", "seed", "solver", "backend", "work", "objective", "known_optimum"})
    if (auto it = first.find(key); it != first.end()) out[key] = it->second;
  for (auto& [k, v] : first)
    if (k.rfind("i.", 0) == 0 || k.rfind("s.", 0) == 0 || k.rfind("gpu.", 0) == 0) out[k] = v;

  std::string status = "ok", message;
  std::vector<double> times, works, harness, harness_case;
  std::map<std::string, std::vector<double>> metrics;  // phases and counters
  std::set<std::string> validity;  // of the rows that ran: true, false, n/a
  for (auto* r : reps) {
    auto st = r->count("status") ? r->at("status") : "error";
    if (severity(st) > severity(status)) status = st;
    if (message.empty() && r->count("message")) message = r->at("message");
    if (r->count("valid") && !r->at("valid").empty()) validity.insert(r->at("valid"));
    if (r->count("time_s") && (st == "ok" || st == "invalid")) {
      times.push_back(std::stod(r->at("time_s")));
      // A search's work (its nodes) may differ run to run: the summary takes the median.
      if (r->count("work") && !r->at("work").empty()) works.push_back(std::stod(r->at("work")));
    }
    if (r->count("harness_s")) harness.push_back(std::stod(r->at("harness_s")));
    if (r->count("harness_case_s")) harness_case.push_back(std::stod(r->at("harness_case_s")));
    for (auto& [k, v] : *r)
      if ((k.rfind("phase.", 0) == 0 || k.rfind("c.", 0) == 0) && !v.empty()) metrics[k].push_back(std::stod(v));
  }
  out["status"] = status;
  // false wins; n/a when nothing checked an answer; empty when no repetition ran.
  out["valid"] = validity.count("false") ? "false" : validity.count("n/a") ? "n/a" : validity.count("true") ? "true" : "";
  out["message"] = message;
  out["reps"] = std::to_string(times.size());
  if (!works.empty()) out["work"] = fmt::format("{:.17g}", median(works));
  if (!times.empty()) {
    double med = median(times);
    double mean = 0;
    for (double t : times) mean += t;
    mean /= double(times.size());
    double var = 0;
    for (double t : times) var += (t - mean) * (t - mean);
    double sd = times.size() > 1 ? std::sqrt(var / double(times.size() - 1)) : 0;
    out["time_median_s"] = num(med);
    out["time_min_s"] = num(*std::min_element(times.begin(), times.end()));
    out["time_max_s"] = num(*std::max_element(times.begin(), times.end()));
    out["time_mean_s"] = num(mean);
    out["time_rsd"] = num(mean > 0 ? sd / mean : 0);
    if (out.count("work") && med > 0) out["throughput"] = num(std::stod(out["work"]) / med);
    if (!harness.empty() && med > 0) out["harness_overhead"] = num(median(harness) / med);
    if (!harness_case.empty() && med > 0) out["harness_case_overhead"] = num(median(harness_case) / med);
  }
  for (auto& [k, v] : metrics) out[k] = num(median(v));
  return out;
}

}  // namespace

std::vector<CsvRow> summarize(const std::vector<CsvRow>& runs) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const CsvRow*>> by_case;
  for (auto& r : runs) {
    auto id = r.count("case_id") ? r.at("case_id") : "";
    if (!by_case.count(id)) order.push_back(id);
    by_case[id].push_back(&r);
  }
  std::vector<CsvRow> out;
  for (auto& id : order) out.push_back(summarize_case(by_case[id]));
  return out;
}

}  // namespace dpgpu
