// series.csv: one row per point of each case's extra, untimed series run.
#include <fmt/format.h>

#include "report/reporter.hpp"

namespace dpgpu {

namespace {

class SeriesCsv : public Reporter {
 public:
  explicit SeriesCsv(const std::filesystem::path& dir) : dir_(dir) {}
  void rebuild(const Records& records) override {
    std::vector<CsvRow> rows;
    for (const CaseRecord* rec : records)
      for (auto& p : rec->result.series)
        rows.push_back({{"case_id", rec->spec.id},
                        {"solver", rec->spec.solver},
                        {"series", p.name},
                        {"index", std::to_string(p.index)},
                        {"value", fmt::format("{}", p.value)}});
    CsvTable(dir_ / "series.csv", {"case_id", "solver", "series", "index", "value"})
        .replace_all(std::move(rows));
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace

std::unique_ptr<Reporter> series_reporter(const std::filesystem::path& dir) {
  return std::make_unique<SeriesCsv>(dir);
}

}  // namespace dpgpu
