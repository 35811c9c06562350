// reporter.hpp — records → outputs. Each output format is one Reporter in its own file
// (reporter_<format>.cpp), like Google Benchmark's reporters and NVBench's printers.
// File reporters rewrite their whole file from every committed record, so a file is always
// complete, agrees with the others, and survives an interrupted run; the console reporter
// prints each case as it commits.
#pragma once
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/case_record.hpp"
#include "records/csv_table.hpp"
#include "results/record_rows.hpp"

namespace dpgpu {

struct Progress {
  std::size_t done = 0, total = 0;  // cases of this run (the selection, done ones included)
  double elapsed_s = 0, left_s = 0;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  // Every case as it commits (cheap: the console).
  virtual void case_finished(const CaseRecord&, const Progress&) {}
  // Rewrites the output from every committed record of the folder, in plan order.
  virtual void rebuild(const Records&) {}
};

std::unique_ptr<Reporter> csv_reporter(const std::filesystem::path& dir);      // runs.csv
std::unique_ptr<Reporter> summary_reporter(const std::filesystem::path& dir);  // summary.csv
std::unique_ptr<Reporter> metrics_reporter(const std::filesystem::path& dir);  // metrics.csv
std::unique_ptr<Reporter> series_reporter(const std::filesystem::path& dir);   // series.csv
// benchmark.json in Google Benchmark's schema (its tools/compare.py reads it); `context`
// is its "context" object.
std::unique_ptr<Reporter> benchmark_json_reporter(const std::filesystem::path& dir,
                                                  nlohmann::json context);
// The console line per case, and a heartbeat line while a case runs long: first after
// first_beat_s without a finished case, then every beat_every_s (reporter_progress.cpp).
std::unique_ptr<Reporter> progress_reporter(std::ostream& out, double first_beat_s = 15,
                                            double beat_every_s = 30);

// Every file reporter of a results folder (output_files.cpp): runs.csv, summary.csv,
// benchmark.json (its context from context.json's), metrics.csv when profiling, series.csv
// when the experiment records series. `dpgpu run` and `dpgpu merge` write the same files.
std::vector<std::unique_ptr<Reporter>> output_reporters(const std::filesystem::path& dir,
                                                        const nlohmann::json& context, bool metrics,
                                                        bool series);

// Shared by the reporters and the run's final tally.
std::vector<CsvRow> metric_rows(const Records& records);
const std::vector<std::string>& metric_columns();
std::vector<CsvRow> summary_rows(
    const Records& records);  // summary.csv's rows, metric means included
nlohmann::json benchmark_entries(const Records& records);

}  // namespace dpgpu
