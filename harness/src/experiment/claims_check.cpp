// claims_check.cpp — `dpgpu check` on claims: the columns they name exist, and their
// selections match planned cases, before anything runs.
#include <fmt/format.h>

#include <algorithm>

#include "dpgpu/error.hpp"
#include "experiment/claims.hpp"

namespace dpgpu {

namespace {

bool has_prefix(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// A column only a run sets (counters, phases, GPU samples, the energy window's columns of
// record_rows.cpp), or a profiled metric: m.<metric> (the mean over kernels), m.<metric>.min
// and .max (metrics.csv), what profiling cost.
bool run_column(const std::string& name, const std::vector<std::string>& metrics) {
  if (has_prefix(name, "c.") || has_prefix(name, "phase.") || has_prefix(name, "gpu.")) return true;
  if (energy_column(name)) return true;
  if (metrics.empty()) return false;
  if (name == "profile_cost_x" || name == "profile_cost_case_x") return true;
  if (!has_prefix(name, "m.")) return false;
  std::string metric = name.substr(2);
  for (const char* end : {".min", ".max"})
    if (metric.size() > 4 && metric.compare(metric.size() - 4, 4, end) == 0)
      metric.resize(metric.size() - 4);
  return std::find(metrics.begin(), metrics.end(), metric) != metrics.end();
}

void check_column(const Claim& c, const NamedColumn& col, const std::set<std::string>& known,
                  const std::vector<std::string>& metrics) {
  if (known.count(col.name) || run_column(col.name, metrics)) return;
  std::vector<std::string> params;
  for (auto& k : known)
    if (has_prefix(k, "i.") || has_prefix(k, "s.")) params.push_back(k);
  const std::string metric_note =
      has_prefix(col.name, "m.")
          ? fmt::format(
                " (m.<metric> needs the metric in profile.metrics: {})",
                metrics.empty() ? std::string("none") : fmt::format("{}", fmt::join(metrics, ", ")))
          : "";
  throw InputError(fmt::format(
      "{}: claims: {}: key '{}': no column '{}' in this experiment's results{} (parameter "
      "columns: {}; fixed columns such as solver, instance, time, time_median_s, throughput, "
      "objective; or c.<counter>, phase.<name>_s, m.<metric>)",
      col.where.str(), c.id, col.key, col.name, metric_note,
      params.empty() ? std::string("none") : fmt::format("{}", fmt::join(params, ", "))));
}

std::size_t count_selected(const Selection& s, const std::vector<ClaimRow>& cases) {
  return std::count_if(cases.begin(), cases.end(),
                       [&](const ClaimRow& r) { return selects(s, r, true); });
}

// Where a selection matches nothing, the condition that empties it, to name in the message.
const Condition* emptying_condition(const Selection& s, const std::vector<ClaimRow>& cases) {
  Selection prefix;
  for (const Condition& c : s.conditions) {
    prefix.conditions.push_back(c);
    if (count_selected(prefix, cases) == 0) return &c;
  }
  return nullptr;
}

void check_selection(const Claim& c, const Selection& s, const char* key,
                     const std::vector<ClaimRow>& cases) {
  if (count_selected(s, cases) > 0) return;
  const Condition* bad = emptying_condition(s, cases);
  std::set<std::string> seen;
  if (bad)
    for (auto& r : cases)
      if (auto it = r.find(bad->column); it != r.end() && seen.size() < 12) seen.insert(it->second);
  throw InputError(fmt::format(
      "{}: claims: {}: key '{}': selects none of the {} planned cases{}",
      bad ? bad->where.str() : s.where.str(), c.id, key, cases.size(),
      bad ? fmt::format(" ('{}' has the values: {})", bad->column, fmt::join(seen, ", ")) : ""));
}

}  // namespace

bool energy_column(const std::string& name) {
  for (const char* energy : {"energy_j", "power_w", "work_per_joule", "energy_solves",
                             "energy_window_s", "idle_power_w", "energy_method"})
    if (name == energy) return true;
  return false;
}

void check_claims(const std::vector<Claim>& claims, const std::vector<ClaimRow>& cases,
                  const std::set<std::string>& known, const std::vector<std::string>& metrics) {
  for (const Claim& c : claims) {
    for (const NamedColumn& col : named_columns(c)) check_column(c, col, known, metrics);
    // A bare name may be a counter, known only once a run sets it; i. and s. are known now.
    if (c.scales_as)
      for (const std::string& name : c.scales_as->names)
        if (!resolve_name(name, known) && (has_prefix(name, "i.") || has_prefix(name, "s.")))
          check_column(c, {name, c.where, "scales_as"}, known, metrics);
    check_selection(c, c.rows, "rows", cases);
    if (c.ratio_to) check_selection(c, *c.ratio_to, "ratio_to", cases);
  }
}

}  // namespace dpgpu
