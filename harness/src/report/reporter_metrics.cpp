// metrics.csv: the profiler's metrics, min/mean/max per kernel over the profiled launches.
#include <fmt/format.h>

#include "report/reporter.hpp"

namespace dpgpu {

const std::vector<std::string>& metric_columns() {
  static const std::vector<std::string> c{"experiment",
                                          "case_id",
                                          "problem",
                                          "instance",
                                          "solver",
                                          "kernel",
                                          "metric",
                                          "ncu_metric",
                                          "unit",
                                          "min",
                                          "mean",
                                          "max",
                                          "launches_profiled",
                                          "launches_total",
                                          "sampling",
                                          "status",
                                          "message",
                                          "profile_wall_s",
                                          "profile_cost_x",
                                          "case_timed_wall_s",
                                          "profile_cost_case_x",
                                          "profiler"};
  return c;
}

std::vector<CsvRow> metric_rows(const Records& records) {
  std::vector<CsvRow> rows;
  for (const CaseRecord* rec : records) {
    if (!rec->profile) continue;
    const ProfileRecord& p = *rec->profile;
    CsvRow common{{"experiment", rec->spec.experiment},
                  {"case_id", rec->spec.id},
                  {"problem", rec->spec.problem},
                  {"instance", rec->spec.instance_name},
                  {"solver", rec->spec.solver},
                  {"sampling", p.sampling},
                  {"profiler", p.backend}};
    common["launches_total"] = fmt::format("{:.0f}", p.launches_total);
    common["profile_wall_s"] = fmt::format("{:.3f}", p.wall_s);
    if (p.cost_x > 0) common["profile_cost_x"] = fmt::format("{:.3g}", p.cost_x);
    if (p.case_wall_s > 0) {
      common["case_timed_wall_s"] = fmt::format("{:.3f}", p.case_wall_s);
      common["profile_cost_case_x"] = fmt::format("{:.3g}", p.wall_s / p.case_wall_s);
    }
    if (!p.ok) {
      CsvRow r = common;
      r["status"] = "error";
      r["message"] = p.message;
      rows.push_back(std::move(r));
      continue;
    }
    for (auto& st : p.stats) {
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
      r["message"] = p.message;
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

namespace {

class MetricsCsv : public Reporter {
 public:
  explicit MetricsCsv(const std::filesystem::path& dir) : dir_(dir) {}
  void rebuild(const Records& records) override {
    CsvTable(dir_ / "metrics.csv", metric_columns()).replace_all(metric_rows(records));
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace

std::unique_ptr<Reporter> metrics_reporter(const std::filesystem::path& dir) {
  return std::make_unique<MetricsCsv>(dir);
}

}  // namespace dpgpu
