// journal_repair.hpp — a results folder's journal read for use, by `dpgpu run` and by the
// readers (plot, report, compare) alike: what cannot be read is set aside, never dropped
// silently, and nothing is rewritten without a copy of the journal as it was.
//
//  - Unreadable lines, duplicated records or a last line cut short: the journal as it was is
//    kept beside it (journal.damaged-<time>.jsonl, a hard link: never rewritten in place) and
//    the records that count become the journal, one line each (their own text, checksum
//    included), where their case first appeared.
//  - A whole last record without its newline counts as it is; only its newline is appended.
//  - Derived files holding a case the journal lacks (the journal deleted or damaged) are
//    moved aside whole (previous-<time>/) before anything rebuilds them.
#pragma once
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "records/case_record.hpp"

namespace dpgpu {

struct LoadedJournal {
  std::map<std::string, CaseRecord> records;  // the record that counts, by case id
  std::map<std::string, std::string> rerun;   // case id → the "rerun" key of that record
  std::filesystem::path damaged_copy;         // the journal as it was, when it was rewritten
  std::string left_out;                       // what was left out, in words; empty if nothing
};

// Needs the folder's lock (a run's, or a reader's): it may rewrite the journal.
LoadedJournal load_journal_repairing(const std::filesystem::path& dir);

// Moves the derived files aside (previous-<time>/) when one holds a case `records` lack, or
// cannot be read; returns what it did, in words, or empty when nothing moved.
std::string keep_derived_ahead_of(const std::filesystem::path& dir,
                                  const std::map<std::string, CaseRecord>& records);

// The case ids benchmark.json holds entries of.
std::set<std::string> benchmark_case_ids(const std::filesystem::path& dir);

// dir/<prefix><time><suffix>, numbered when that name is taken.
std::filesystem::path unused_name(const std::filesystem::path& dir, const std::string& prefix,
                                  const std::string& suffix);

}  // namespace dpgpu
