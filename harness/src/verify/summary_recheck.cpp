// summary_recheck.cpp — summary.csv recomputed from runs.csv (summary_recheck.hpp).
#include "verify/summary_recheck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "verify/claim_eval.hpp"

namespace dpgpu {

namespace {

using Values = std::map<std::string, std::vector<double>>;  // column → counted reps' values

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool per_rep_column(const std::string& k) {
  return k == "time_s" || k == "work" || k.rfind("c.", 0) == 0 ||
         (k.rfind("phase.", 0) == 0 && k.size() > 2 && k.compare(k.size() - 2, 2, "_s") == 0);
}

// What summary.csv should hold for one case, from its counted runs.csv rows.
ClaimRow expected(const Values& v, const std::string& objective) {
  ClaimRow out;
  if (!objective.empty()) out["objective"] = objective;
  auto t = v.find("time_s");
  for (auto& [k, xs] : v)
    if (k != "time_s" && !xs.empty()) out[k] = fmt::format("{}", median(xs));
  if (t == v.end() || t->second.empty()) return out;
  const auto& ts = t->second;
  const double med = median(ts);
  out["time_median_s"] = fmt::format("{}", med);
  out["time_min_s"] = fmt::format("{}", *std::min_element(ts.begin(), ts.end()));
  out["time_max_s"] = fmt::format("{}", *std::max_element(ts.begin(), ts.end()));
  out["time_mean_s"] = fmt::format("{}", std::accumulate(ts.begin(), ts.end(), 0.0) / ts.size());
  if (auto w = v.find("work"); w != v.end() && !w->second.empty() && med > 0)
    out["throughput"] = fmt::format("{}", median(w->second) / med);
  return out;
}

// The same number at the precision either side wrote (summary.csv: 6 significant digits).
bool agrees(const std::string& written, const std::string& exact) {
  auto a = cell_number(written), b = cell_number(exact);
  if (!a || !b) return written == exact;
  return *a == *b || std::fabs(*a - *b) <= 5e-6 * std::max(std::fabs(*a), std::fabs(*b));
}

// Each case's counted values (status ok or invalid with a time) and its first objective.
std::map<std::string, std::pair<Values, std::string>> by_case(const std::vector<ClaimRow>& runs) {
  std::map<std::string, std::pair<Values, std::string>> out;
  for (const ClaimRow& r : runs) {
    auto id = r.find("case_id");
    if (id == r.end()) continue;
    auto& [values, objective] = out[id->second];
    auto obj = r.find("objective");
    if (objective.empty() && obj != r.end()) objective = obj->second;
    auto st = r.find("status");
    auto t = r.find("time_s");
    if (st == r.end() || (st->second != "ok" && st->second != "invalid") || t == r.end() ||
        t->second.empty())
      continue;
    for (auto& [k, cell] : r)
      if (per_rep_column(k))
        if (auto x = cell_number(cell)) values[k].push_back(*x);
  }
  return out;
}

}  // namespace

std::vector<std::string> recheck_summary(const std::filesystem::path& dir,
                                         std::vector<ClaimRow>& summary,
                                         const std::vector<ClaimRow>& runs) {
  const bool have_runs = std::filesystem::exists(dir / "runs.csv");
  const auto cases = by_case(runs);
  std::vector<std::string> bad;
  for (ClaimRow& row : summary) {
    auto it = cases.find(row["case_id"]);
    const ClaimRow want =
        it == cases.end() ? ClaimRow{} : expected(it->second.first, it->second.second);
    std::vector<std::pair<std::string, std::string>> marks;
    for (auto& [k, v] : row) {
      const bool derived =
          per_rep_column(k) || k == "objective" || k == "throughput" || k.rfind("time_", 0) == 0;
      if (!derived || v.empty() || k == "time_rsd" || k == "time_noise") continue;
      auto w = want.find(k);
      // A case that never ran to an answer keeps the work its spec declares (no rep has one).
      if (k == "work" && w == want.end()) continue;
      if (!have_runs)
        marks.push_back({k, fmt::format("{}: no runs.csv to recompute summary.csv's {} from",
                                        row["case_id"], k)});
      else if (w == want.end() || !agrees(v, w->second))
        marks.push_back(
            {k, fmt::format("{}: summary.csv's {} is {}, runs.csv gives {}", row["case_id"], k, v,
                            w == want.end() ? "nothing" : w->second)});
      else if (k != "objective")
        v = w->second;  // the exact value (a node count in full)
    }
    for (auto& [k, why] : marks) {
      row[kMismatchPrefix + k] = why;
      if (have_runs) bad.push_back(why);
    }
  }
  return bad;
}

}  // namespace dpgpu
