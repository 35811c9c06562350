#include "results/journal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace dpgpu {

Journal read_journal(const fs::path& path) {
  Journal j;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  j.total_bytes = text.size();
  std::size_t pos = 0, number = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) {  // no newline: the write was cut
      j.cut = true;
      break;
    }
    ++number;
    j.complete_bytes = end + 1;
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    try {
      const nlohmann::json parsed = nlohmann::json::parse(line);
      j.records.push_back(case_record_from_json(parsed));
      j.reruns.push_back(parsed.is_object() && parsed.value(kRerunKey, false));
    } catch (const std::exception&) {
      j.unreadable.push_back(number);
    }
  }
  return j;
}

std::map<std::string, CaseRecord> latest_records(const Journal& journal, std::size_t* duplicates) {
  std::map<std::string, CaseRecord> out;
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < journal.records.size(); ++i) {
    const CaseRecord& rec = journal.records[i];
    if (journal.reruns[i] || !out.count(rec.spec.id))
      out.insert_or_assign(rec.spec.id, rec);
    else
      ++dropped;  // the same case again, not a rerun: the first record counts
  }
  if (duplicates) *duplicates = dropped;
  return out;
}

std::string journal_damage_words(const Journal& journal, std::size_t duplicates) {
  std::vector<std::string> parts;
  if (!journal.unreadable.empty()) {
    std::vector<std::size_t> shown(
        journal.unreadable.begin(),
        journal.unreadable.begin() + long(std::min<std::size_t>(journal.unreadable.size(), 5)));
    parts.push_back(fmt::format("{} unreadable line{} ({}{})", journal.unreadable.size(),
                                journal.unreadable.size() > 1 ? "s" : "", fmt::join(shown, ", "),
                                journal.unreadable.size() > shown.size() ? ", …" : ""));
  }
  if (duplicates)
    parts.push_back(
        fmt::format("{} duplicated record{} of a case already recorded (the first kept)",
                    duplicates, duplicates > 1 ? "s" : ""));
  return fmt::format("{}", fmt::join(parts, " and "));
}

}  // namespace dpgpu
