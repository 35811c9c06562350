// journal.hpp — reading journal.jsonl, one CaseRecord per line (journal_line.hpp), without
// losing a readable record to a damaged one.
//
//  - A line that cannot be read (garbage, a bit flip: its checksum fails, values no
//    measurement can have) is left out on its own: every readable record before and after it
//    is kept.
//  - The last line without its newline is a write cut short (a kill, a full disk) and left
//    out, unless it is a whole record (its checksum holds): then it counts like any other.
//  - A case recorded twice keeps its first record, unless the later one was written by a
//    --filter rerun (marked "rerun"), which replaces it; other duplicates are counted.
//  - Read line by line: memory holds the records, not the file's text as well.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "records/case_record.hpp"

namespace dpgpu {

struct Journal {
  std::vector<CaseRecord> records;      // every readable record, in file order
  std::vector<std::string> reruns;      // per record: its "rerun" key ("" none, "true", a token)
  std::vector<std::size_t> unreadable;  // line numbers (from 1) of complete lines left out
  std::vector<std::string> why;         // per unreadable line: why ("checksum mismatch")
  std::size_t unchecked = 0;            // records from before checksums (read without one)
  bool cut = false;                     // the last line had no newline and no whole record
  bool unterminated = false;            // the last line had no newline (whole record or not)
  std::size_t total_bytes = 0, complete_bytes = 0;  // complete_bytes: up to the last newline
  bool damaged() const { return !unreadable.empty(); }
};
Journal read_journal(const std::filesystem::path& path);

// The record that counts for each case id (see above); `duplicates` counts the records left
// out because their case was already recorded. Moves the records out of `journal`.
std::map<std::string, CaseRecord> latest_records(Journal& journal,
                                                 std::size_t* duplicates = nullptr);
std::map<std::string, CaseRecord> latest_records(Journal&& journal);

// "2 unreadable lines (4, 9) (line 4: checksum mismatch)" / "1 duplicated record": what was left
// out, in words; empty if nothing.
std::string journal_damage_words(const Journal& journal, std::size_t duplicates);

// The key a --filter rerun adds to its journal line: true, or the rerun's token (the folder's
// unfinished --filter rerun, results_folder.hpp).
inline constexpr const char* kRerunKey = "rerun";

}  // namespace dpgpu
