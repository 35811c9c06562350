#include "report/stale_outputs.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "dpgpu/text_file.hpp"
#include "records/csv_table.hpp"
#include "report/reporter.hpp"
#include "results/journal_repair.hpp"
#include "results/record_rows.hpp"
#include "results/results_folder.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

nlohmann::json json_or_null(const fs::path& path) {
  try {
    return nlohmann::json::parse(read_whole_file(path));
  } catch (const std::exception&) {
    return nullptr;
  }
}

bool same_time(const std::string& a, const std::string& b) {
  if (a == b) return true;
  try {
    const double x = std::stod(a), y = std::stod(b);
    return std::fabs(x - y) <= 1e-6 * std::max(std::fabs(x), std::fabs(y));
  } catch (const std::exception&) {
    return false;
  }
}

// Why runs.csv and summary.csv do not show what the journal's records say, or empty: each
// (case, repetition) with its status and time, and each case once. Content only: copies,
// clones and `touch` change times, not this.
std::string stale_because(const fs::path& dir, const Records& records) {
  for (auto name : {"runs.csv", "summary.csv", "benchmark.json"})
    if (!fs::exists(dir / name)) return fmt::format("{} is missing", name);
  std::map<std::pair<std::string, std::string>, std::string> want;  // (case, rep) -> time_s
  for (const CsvRow& row : run_rows(records))
    want[{row.at("case_id"), row.at("rep")}] = row.count("time_s") ? row.at("time_s") : "";
  std::vector<CsvRow> runs, summary;
  try {
    runs = CsvTable(dir / "runs.csv", {}).load();
    summary = CsvTable(dir / "summary.csv", {}).load();
  } catch (const std::exception& e) {
    return fmt::format("a derived file is unreadable ({})", e.what());
  }
  if (runs.size() != want.size())
    return fmt::format("runs.csv has {} rows, the journal's records {}", runs.size(), want.size());
  for (CsvRow& row : runs) {
    auto it = want.find({row["case_id"], row["rep"]});
    if (it == want.end())
      return fmt::format("runs.csv holds '{}' rep {}, the journal does not", row["case_id"],
                         row["rep"]);
    if (!same_time(it->second, row["time_s"]))
      return fmt::format("runs.csv's time of '{}' rep {} is not the journal's", row["case_id"],
                         row["rep"]);
  }
  std::set<std::string> cases;
  for (CsvRow& row : summary) cases.insert(row["case_id"]);
  if (cases.size() != records.size() || summary.size() != records.size())
    return fmt::format("summary.csv has {} cases, the journal {}", summary.size(), records.size());
  for (const CaseRecord* r : records)
    if (!cases.count(r->spec.id)) return fmt::format("summary.csv lacks '{}'", r->spec.id);
  return {};
}

// Holds a results folder's lock while a reader repairs or rebuilds it.
struct FolderLock {
  int fd = -1;
  explicit FolderLock(const fs::path& dir) {
    fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0) ::close(fd), fd = -1;
  }
  ~FolderLock() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

bool rebuild_if_stale(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || !fs::exists(dir / kPlanFile, ec) ||
      !fs::exists(dir / kJournalFile, ec))
    return false;
  const nlohmann::json plan = json_or_null(dir / kPlanFile);
  if (!plan.is_object() || !plan.contains("fingerprint")) return false;
  FolderLock lock(dir);
  if (lock.fd < 0) return false;  // a run holds it and rebuilds them itself
  LoadedJournal loaded = load_journal_repairing(dir);
  if (!loaded.damaged_copy.empty())
    std::cerr << fmt::format(
        "warning: {}: {} left out; the journal as it was is kept as {}, its {} readable records "
        "stay\n",
        (dir / kJournalFile).string(), loaded.left_out, loaded.damaged_copy.filename().string(),
        loaded.records.size());
  Records ordered;
  bool profiled = fs::exists(dir / "metrics.csv", ec);
  for (auto& id : plan["fingerprint"].value("cases", nlohmann::json::array()))
    if (auto it = loaded.records.find(id.get<std::string>()); it != loaded.records.end()) {
      ordered.push_back(&it->second);
      profiled = profiled || it->second.profile.has_value();
    }
  const std::string why = stale_because(dir, ordered);
  if (why.empty()) return false;
  if (const std::string moved = keep_derived_ahead_of(dir, loaded.records); !moved.empty())
    std::cerr << fmt::format("warning: {}: {}\n", dir.string(), moved);
  nlohmann::json context = json_or_null(dir / "context.json");
  if (!context.is_object()) context = nlohmann::json::object();
  const bool series = plan["fingerprint"].value("series", false);
  for (auto& reporter : output_reporters(dir, context, profiled, series))
    reporter->rebuild(ordered);
  std::cerr << fmt::format(
      "note: {}: the derived files did not show its journal ({}; a run stopped before "
      "rewriting them): rebuilt from its {} records\n",
      dir.string(), why, ordered.size());
  return true;
}

}  // namespace dpgpu
