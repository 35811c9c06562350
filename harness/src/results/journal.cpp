#include "results/journal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>

#include "results/journal_line.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

Journal read_journal(const fs::path& path) {
  Journal j;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    const bool terminated = !in.eof();  // getline stopped at a newline, not the end
    ++number;
    j.total_bytes += line.size() + (terminated ? 1 : 0);
    ReadLine read = read_journal_line(line);
    if (!terminated) {
      j.unterminated = true;
      if (!read.record) {  // a write cut short: no record, nothing lost
        j.cut = true;
        break;
      }
    } else {
      j.complete_bytes = j.total_bytes;
    }
    if (!read.record) {
      j.unreadable.push_back(number);
      j.why.push_back(read.why);
      continue;
    }
    j.unchecked += !read.checked;
    j.records.push_back(std::move(*read.record));
    j.reruns.push_back(read.rerun);
  }
  return j;
}

std::map<std::string, CaseRecord> latest_records(Journal& journal, std::size_t* duplicates) {
  std::map<std::string, CaseRecord> out;
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < journal.records.size(); ++i) {
    CaseRecord& rec = journal.records[i];
    if (!journal.reruns[i].empty() || !out.count(rec.spec.id)) {
      std::string id = rec.spec.id;
      out.insert_or_assign(std::move(id), std::move(rec));
    } else {
      ++dropped;  // the same case again, not a rerun: the first record counts
    }
  }
  if (duplicates) *duplicates = dropped;
  return out;
}

std::map<std::string, CaseRecord> latest_records(Journal&& journal) {
  return latest_records(journal);
}

std::string journal_damage_words(const Journal& journal, std::size_t duplicates) {
  std::vector<std::string> parts;
  if (!journal.unreadable.empty()) {
    std::vector<std::size_t> shown(
        journal.unreadable.begin(),
        journal.unreadable.begin() + long(std::min<std::size_t>(journal.unreadable.size(), 5)));
    parts.push_back(fmt::format(
        "{} unreadable line{} ({}{}){}", journal.unreadable.size(),
        journal.unreadable.size() > 1 ? "s" : "", fmt::join(shown, ", "),
        journal.unreadable.size() > shown.size() ? ", …" : "",
        journal.why.front().empty()
            ? std::string()
            : fmt::format(" (line {}: {})", journal.unreadable.front(), journal.why.front())));
  }
  if (duplicates)
    parts.push_back(
        fmt::format("{} duplicated record{} of a case already recorded (the first kept)",
                    duplicates, duplicates > 1 ? "s" : ""));
  return fmt::format("{}", fmt::join(parts, " and "));
}

}  // namespace dpgpu
