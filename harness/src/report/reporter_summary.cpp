// summary.csv: one row per case (case_summary.hpp), with the mean of each profiler metric
// (m.<metric>) when the case was profiled and its energy when it was measured.
#include <fmt/format.h>

#include "report/reporter.hpp"
#include "measure/summary.hpp"
#include "report/case_summary.hpp"

namespace dpgpu {

namespace {

// The mean of each metric over every profiled launch of the case (its kernels weighted by
// their launches).
void add_metric_means(CsvRow& row, const CaseRecord& rec) {
  if (!rec.profile || !rec.profile->ok) return;
  std::map<std::string, std::pair<double, double>> acc;  // metric → (Σ mean·n, n)
  for (auto& st : rec.profile->stats) {
    auto& a = acc[st.metric];
    a.first += as_recorded(st.mean, 6) * double(st.count);  // as metrics.csv has it
    a.second += double(st.count);
  }
  for (auto& [metric, a] : acc)
    if (a.second > 0) row["m." + metric] = fmt::format("{:.6g}", a.first / a.second);
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
  std::vector<CsvRow> rows;
  const auto by_case = run_rows_by_case(records);
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (by_case[i].empty()) continue;  // a case with no row has no summary either
    const CaseRecord& rec = *records[i];
    CsvRow row = case_summary(rec, by_case[i]);
    add_metric_means(row, rec);
    // The case's energy (one window per case), work per joule from the median work.
    if (rec.result.energy && row.count("time_median_s"))
      add_energy_columns(row, *rec.result.energy, median_work(rec));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::unique_ptr<Reporter> summary_reporter(const std::filesystem::path& dir) {
  return std::make_unique<SummaryCsv>(dir);
}

}  // namespace dpgpu
