// journal_line.hpp — one line of journal.jsonl: a CaseRecord's JSON with a checksum of its
// own text, and the checks a line must pass to count as a record.
//
//  - Written: the record's JSON with `"check":"<16 hex digits>"` as its last key, the FNV-1a
//    hash (hash_text) of the line's text without that key. A flipped bit anywhere in the line
//    breaks the JSON, the key or the hash.
//  - Read: a line whose check key is not last, or whose hash differs, is damaged; so is one
//    whose values cannot have been measured (a time that is negative, not finite or above a
//    year; an `ok` case without repetitions). Damaged lines are set aside (journal.hpp).
//  - Journals written before checksums (no "check" key) still read: their lines are
//    accepted after the value checks unless they hold a key no journal line has ever held
//    (a flipped bit in the check key's name turns it into such a key), and are counted as
//    unchecked (Journal::unchecked).
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "records/case_record.hpp"

namespace dpgpu {

// The line (with its newline) that records `record` (a JSON object) in the journal.
std::string journal_line(const nlohmann::json& record);

struct ReadLine {
  std::optional<CaseRecord> record;  // empty: damaged
  std::string why;                   // why it is damaged ("checksum mismatch")
  bool checked = false;              // it carried a checksum that matched
  std::string rerun;                 // the "rerun" key: "" none, "true", or a --filter run's token
};

// `line` without its newline.
ReadLine read_journal_line(const std::string& line);

// Why a record's values cannot be a measurement, or empty.
std::string implausible_values(const CaseRecord& record);

inline constexpr const char* kCheckKey = "check";

}  // namespace dpgpu
