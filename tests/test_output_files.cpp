// The files a results folder derives from its journal, byte for byte against the ones the
// harness wrote before its statistics were computed in one place (tests/fixtures/outputs/
// expected/, generated from journal.jsonl by the code of that time): runs.csv, summary.csv,
// metrics.csv, series.csv, benchmark.json and the progress lines.
//
// The journal mixes toy runs (ok, invalid, timeout, oom, skipped, noisy cases, a series,
// solvers that disagree) with committed H100 records (GPU samples, counters, a work counter,
// multi-GPU workers), one made-up energy window per backend and one made-up profile.
// DPGPU_WRITE_EXPECTED=1 rewrites the expected files instead of comparing (only when the
// change of an output is intended).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "report/reporter.hpp"
#include "results/journal.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(DPGPU_TEST_FIXTURES) / "outputs";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A new folder, removed after the test; DPGPU_KEEP_OUTPUTS=DIR writes there and keeps it.
struct Scratch {
  const char* keep = std::getenv("DPGPU_KEEP_OUTPUTS");
  fs::path path = keep ? fs::path(keep)
                       : fs::temp_directory_path() /
                             ("dpgpu-outputs-" + std::to_string(std::random_device{}()));
  Scratch() { fs::create_directories(path); }
  ~Scratch() {
    std::error_code ec;
    if (!keep) fs::remove_all(path, ec);
  }
};

// The progress reporter's lines for every record, with made-up counts and time left.
std::string progress_lines(const dpgpu::Records& records) {
  std::ostringstream out;
  auto progress = dpgpu::progress_reporter(out);
  std::size_t done = 0;
  for (const dpgpu::CaseRecord* r : records) {
    ++done;
    progress->case_finished(
        *r, {done, records.size(), 10.0 * double(done), 90.0 * double(records.size() - done)});
  }
  return out.str();
}

}  // namespace

TEST(OutputFiles, ByteIdenticalForAFixedJournal) {
  const dpgpu::Journal journal = dpgpu::read_journal(kDir / "journal.jsonl");
  ASSERT_FALSE(journal.damaged());
  ASSERT_GT(journal.records.size(), 30u);
  dpgpu::Records records;
  for (auto& r : journal.records) records.push_back(&r);

  Scratch out;
  // benchmark.json's context as output_reporters() builds it, with a fixed executable path.
  const nlohmann::json context{{"date", "2026-11-27T09:30:00Z"},
                               {"host_name", "fixture"},
                               {"executable", "/opt/dpgpu/dpgpu"},
                               {"num_cpus", 16},
                               {"mhz_per_cpu", 0},
                               {"cpu_scaling_enabled", false},
                               {"caches", nlohmann::json::array()},
                               {"library_build_type", "release"},
                               {"dpgpu_experiment", "fixture"}};
  std::vector<std::unique_ptr<dpgpu::Reporter>> files;
  files.push_back(dpgpu::csv_reporter(out.path));
  files.push_back(dpgpu::summary_reporter(out.path));
  files.push_back(dpgpu::metrics_reporter(out.path));
  files.push_back(dpgpu::series_reporter(out.path));
  files.push_back(dpgpu::benchmark_json_reporter(out.path, context));
  for (auto& f : files) f->rebuild(records);
  std::ofstream(out.path / "progress.txt") << progress_lines(records);

  const bool write = std::getenv("DPGPU_WRITE_EXPECTED") != nullptr;
  for (auto name :
       {"runs.csv", "summary.csv", "metrics.csv", "series.csv", "benchmark.json", "progress.txt"}) {
    ASSERT_TRUE(fs::exists(out.path / name)) << name;
    if (write) {
      fs::create_directories(kDir / "expected");
      fs::copy_file(out.path / name, kDir / "expected" / name,
                    fs::copy_options::overwrite_existing);
      continue;
    }
    EXPECT_EQ(slurp(out.path / name), slurp(kDir / "expected" / name))
        << name << " differs from the expected file";
  }
}
