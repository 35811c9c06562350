// journal.hpp — reading journal.jsonl, one CaseRecord per line, without losing a readable
// record to a damaged one.
//
//  - A line that cannot be read (garbage, a bit flip) is left out on its own: every
//    readable record before and after it is kept.
//  - The last line without its newline is a write cut short (a kill, a full disk): left out.
//  - A case recorded twice keeps its first record, unless the later one was written by a
//    --filter rerun (marked "rerun": true), which replaces it; other duplicates are counted.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "records/case_record.hpp"

namespace dpgpu {

struct Journal {
  std::vector<CaseRecord> records;      // every readable record, in file order
  std::vector<bool> reruns;             // per record: written by a --filter rerun
  std::vector<std::size_t> unreadable;  // line numbers (from 1) of complete lines left out
  bool cut = false;                     // the last line had no newline: left out
  std::size_t total_bytes = 0, complete_bytes = 0;  // complete_bytes: up to the last newline
  bool damaged() const { return !unreadable.empty(); }
};
Journal read_journal(const std::filesystem::path& path);

// The record that counts for each case id (see above); `duplicates` counts the records left
// out because their case was already recorded.
std::map<std::string, CaseRecord> latest_records(const Journal& journal,
                                                 std::size_t* duplicates = nullptr);

// "2 unreadable lines (4, 9)" / "1 duplicated record": what was left out, in words; empty if nothing.
std::string journal_damage_words(const Journal& journal, std::size_t duplicates);

// The key a --filter rerun adds to its journal line.
inline constexpr const char* kRerunKey = "rerun";

}  // namespace dpgpu
