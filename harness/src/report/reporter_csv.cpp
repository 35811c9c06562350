// runs.csv: one row per counted repetition (DESIGN.md's columns first).
#include "report/reporter.hpp"
#include "measure/summary.hpp"

namespace dpgpu {

namespace {

class RunsCsv : public Reporter {
 public:
  explicit RunsCsv(const std::filesystem::path& dir) : dir_(dir) {}
  void rebuild(const Records& records) override {
    CsvTable(dir_ / "runs.csv", run_columns()).replace_all(run_rows(records));
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace

std::unique_ptr<Reporter> csv_reporter(const std::filesystem::path& dir) {
  return std::make_unique<RunsCsv>(dir);
}

}  // namespace dpgpu
