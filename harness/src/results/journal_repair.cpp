#include "results/journal_repair.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "records/csv_table.hpp"
#include "results/journal.hpp"
#include "results/journal_line.hpp"
#include "results/results_folder.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

// Appends the newline a whole last record lacks (no rewrite: the bytes before stay).
void append_newline(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  const bool ok = fd >= 0 && ::write(fd, "\n", 1) == 1;
  const int err = errno;
  if (fd >= 0) ::close(fd);
  if (!ok)
    throw WriteError(
        fmt::format("cannot end {}'s last line: {}", path.string(), std::strerror(err)));
}

// The journal as it was, kept beside it under a new name (a hard link).
fs::path keep_copy(const fs::path& dir, const fs::path& path) {
  const fs::path aside = unused_name(dir, "journal.damaged-", ".jsonl");
  if (::link(path.c_str(), aside.c_str()) != 0)
    throw WriteError(fmt::format("cannot keep {} as {}: {}", path.string(), aside.string(),
                                 std::strerror(errno)));
  return aside;
}

}  // namespace

std::set<std::string> benchmark_case_ids(const fs::path& dir) {
  std::set<std::string> ids;
  std::error_code ec;
  if (!fs::exists(dir / "benchmark.json", ec)) return ids;
  try {
    const nlohmann::json doc = nlohmann::json::parse(read_whole_file(dir / "benchmark.json"));
    for (auto& b : doc.at("benchmarks")) {
      std::string name = b.value("run_name", b.value("name", ""));
      const std::string suffix = "/manual_time";
      if (name.size() > suffix.size() && name.ends_with(suffix))
        ids.insert(name.substr(0, name.size() - suffix.size()));
    }
  } catch (const std::exception&) {
    ids.insert("(benchmark.json is unreadable)");
  }
  return ids;
}

fs::path unused_name(const fs::path& dir, const std::string& prefix, const std::string& suffix) {
  const std::string now = timestamp();
  fs::path p = dir / (prefix + now + suffix);
  for (int i = 2; fs::exists(p); ++i) p = dir / fmt::format("{}{}-{}{}", prefix, now, i, suffix);
  return p;
}

LoadedJournal load_journal_repairing(const fs::path& dir) {
  const fs::path path = dir / kJournalFile;
  LoadedJournal out;
  std::error_code ec;
  if (!fs::exists(path, ec)) return out;
  Journal journal = read_journal(path);
  // The record that counts for each case (journal.hpp), and its "rerun" key.
  std::vector<std::string> order;
  std::size_t duplicates = 0;
  for (std::size_t i = 0; i < journal.records.size(); ++i) {
    const std::string& id = journal.records[i].spec.id;
    const bool seen = out.records.count(id) > 0;
    if (!seen) order.push_back(id);
    if (seen && journal.reruns[i].empty()) {
      ++duplicates;
      continue;
    }
    out.rerun[id] = journal.reruns[i];
    out.records.insert_or_assign(id, std::move(journal.records[i]));
  }
  if (!journal.damaged() && duplicates == 0 && !journal.cut) {
    if (journal.unterminated) append_newline(path);
    return out;
  }
  out.damaged_copy = keep_copy(dir, path);
  std::string text;
  for (const std::string& id : order) {
    nlohmann::json j = to_json(out.records.at(id));
    if (!out.rerun[id].empty())
      j[kRerunKey] = out.rerun[id] == "true" ? nlohmann::json(true) : nlohmann::json(out.rerun[id]);
    text += journal_line(j);
  }
  write_file_atomically(path, text);
  out.left_out = journal.cut && !journal.damaged() && duplicates == 0
                     ? std::string("its last line, cut short by a kill or a full disk")
                     : journal_damage_words(journal, duplicates);
  if (journal.cut && (journal.damaged() || duplicates))
    out.left_out += " and its last line, cut short";
  return out;
}

std::string keep_derived_ahead_of(const fs::path& dir,
                                  const std::map<std::string, CaseRecord>& records) {
  std::set<std::string> lacking;
  std::string unreadable;
  for (auto name : {"summary.csv", "runs.csv"}) {
    if (!fs::exists(dir / name)) continue;
    try {
      for (CsvRow& row : CsvTable(dir / name, {}).load())
        if (!records.count(row["case_id"])) lacking.insert(row["case_id"]);
    } catch (const std::exception& e) {
      unreadable = e.what();
    }
  }
  for (const std::string& id : benchmark_case_ids(dir))
    if (!records.count(id)) lacking.insert(id);
  if (lacking.empty() && unreadable.empty()) return {};
  const fs::path aside = unused_name(dir, "previous-", "");
  fs::create_directories(aside);
  std::vector<std::string> moved;
  for (auto name : kDerivedFiles)
    if (fs::exists(dir / name)) fs::rename(dir / name, aside / name), moved.push_back(name);
  return fmt::format("{}; so {} were moved to {} before being rebuilt from the journal",
                     !lacking.empty()
                         ? fmt::format("its derived files hold {} cases that {} lacks (e.g. '{}')",
                                       lacking.size(), kJournalFile, *lacking.begin())
                         : fmt::format("a derived file is unreadable ({})", unreadable),
                     fmt::join(moved, ", "), aside.string());
}

}  // namespace dpgpu
