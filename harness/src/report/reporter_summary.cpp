// summary.csv: one row per case, from the same rows as runs.csv, with the mean of each
// profiler metric (m.<metric>) when the case was profiled.
#include <fmt/format.h>

#include "report/reporter.hpp"
#include "measure/summary.hpp"

namespace dpgpu {

namespace {

// The mean over every profiled launch of the case.
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

// The case's energy (one window per case), work per joule from the median work.
void merge_energy(std::vector<CsvRow>& summary, const Records& records) {
  std::map<std::string, const EnergyRecord*> by_case;
  for (const CaseRecord* r : records)
    if (r->result.energy) by_case[r->spec.id] = &*r->result.energy;
  for (auto& row : summary) {
    auto it = by_case.find(row["case_id"]);
    if (it == by_case.end() || row["time_median_s"].empty()) continue;
    std::optional<double> work;
    if (!row["work"].empty()) work = std::stod(row["work"]);
    add_energy_columns(row, *it->second, work);
  }
}

class SummaryCsv : public Reporter {
 public:
  explicit SummaryCsv(const std::filesystem::path& dir) : dir_(dir) {}
  void rebuild(const Records& records) override {
    CsvTable(dir_ / "summary.csv", summary_columns()).replace_all(summary_rows(records));
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace

std::vector<CsvRow> summary_rows(const Records& records) {
  auto rows = summarize(run_rows(records));
  merge_metric_means(rows, metric_rows(records));
  merge_energy(rows, records);
  return rows;
}

std::unique_ptr<Reporter> summary_reporter(const std::filesystem::path& dir) {
  return std::make_unique<SummaryCsv>(dir);
}

}  // namespace dpgpu
