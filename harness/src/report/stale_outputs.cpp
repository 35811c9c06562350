#include "report/stale_outputs.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <iostream>

#include "dpgpu/text_file.hpp"
#include "report/reporter.hpp"
#include "results/journal.hpp"
#include "results/results_folder.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

bool older_than_journal(const fs::path& dir) {
  std::error_code ec;
  const auto journal = fs::last_write_time(dir / kJournalFile, ec);
  if (ec) return false;
  for (auto name : {"runs.csv", "summary.csv", "benchmark.json"}) {
    const auto t = fs::last_write_time(dir / name, ec);
    if (ec || t < journal) return true;
  }
  return false;
}

nlohmann::json json_or_null(const fs::path& path) {
  try {
    return nlohmann::json::parse(read_whole_file(path));
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

bool rebuild_if_stale(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || !fs::exists(dir / kPlanFile, ec) || !older_than_journal(dir))
    return false;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) return false;  // a run holds it and rebuilds them itself
  const nlohmann::json plan = json_or_null(dir / kPlanFile);
  if (!plan.is_object() || !plan.contains("fingerprint")) return false;
  const auto records = latest_records(read_journal(dir / kJournalFile));
  Records ordered;
  bool profiled = fs::exists(dir / "metrics.csv", ec);
  for (auto& id : plan["fingerprint"].value("cases", nlohmann::json::array()))
    if (auto it = records.find(id.get<std::string>()); it != records.end()) {
      ordered.push_back(&it->second);
      profiled = profiled || it->second.profile.has_value();
    }
  nlohmann::json context = json_or_null(dir / "context.json");
  if (!context.is_object()) context = nlohmann::json::object();
  const bool series = plan["fingerprint"].value("series", false);
  for (auto& reporter : output_reporters(dir, context, profiled, series))
    reporter->rebuild(ordered);
  std::cerr << fmt::format(
      "note: {}: runs.csv, summary.csv and benchmark.json were older than {} (a run stopped "
      "before rewriting them): rebuilt from its {} records\n",
      dir.string(), kJournalFile, ordered.size());
  return true;
}

}  // namespace dpgpu
