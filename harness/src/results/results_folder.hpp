// results_folder.hpp — results/<name>/ as a durable record.
//
//  - journal.jsonl holds one line per finished case (its CaseRecord), appended with one
//    write (fdatasync at most every kSyncSeconds): a case's rows are all there or none
//    are. A line cut short by a kill is dropped on the next open, so that case runs
//    again; it is never counted short.
//  - plan.json holds the fingerprint of the expanded plan: --resume continues only the same
//    experiment (same case ids, same repetitions and measuring settings) and says why not.
//  - One run at a time: the folder is flock()ed for the whole run; a second run is refused
//    at once, naming the holder's pid and command (in .dpgpu-run).
//  - Nothing is silently replaced: a folder with results needs --resume, --filter (reruns
//    those cases, keeps the others) or --fresh (moves the old results to previous-<time>/).
// Every other file (runs.csv, summary.csv, benchmark.json, ...) is rebuilt from the journal.
#pragma once
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "records/case_record.hpp"
#include "plan/plan.hpp"
#include "results/record_rows.hpp"

namespace dpgpu {

struct FolderOptions {
  bool resume = false;    // keep committed cases and run the rest
  bool fresh = false;     // move existing results aside first
  bool filtered = false;  // --filter: rerun the selected cases, keep the others
};

class ResultsFolder {
 public:
  // Refuses with InputError (writing nothing) when this run may not use the folder.
  ResultsFolder(std::filesystem::path dir, const RunPlan& plan, const FolderOptions& options);
  ~ResultsFolder();
  ResultsFolder(const ResultsFolder&) = delete;
  ResultsFolder& operator=(const ResultsFolder&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  bool committed(const std::string& case_id) const { return records_.count(case_id) > 0; }
  std::size_t committed_count() const { return records_.size(); }
  // Appends the record to the journal (one write; fdatasync at most every kSyncSeconds and
  // at the end) and keeps it.
  void commit(CaseRecord record);
  void sync();
  // The committed records of the plan's cases, in plan order.
  Records in_plan_order(const RunPlan& plan) const;
  // Where --fresh moved old results, or empty.
  const std::filesystem::path& moved_aside() const { return moved_aside_; }
  // Figures removed because the data under them changed, or empty.
  const std::filesystem::path& removed_figures() const { return removed_figures_; }

 private:
  void lock();
  void open_for(const RunPlan& plan, const FolderOptions& options);
  void write_holder();
  bool holder_gone() const;
  void load_journal();
  std::filesystem::path dir_;
  int dir_fd_ = -1, journal_fd_ = -1;
  std::map<std::string, CaseRecord> records_;  // the latest record of each case id
  std::filesystem::path moved_aside_, removed_figures_;
  bool figures_checked_ = false;
  std::chrono::steady_clock::time_point last_sync_{};
};

// A journal's complete records in file order (a case rerun by --filter appears twice: the
// later line counts). A line cut short, and every line after it, is left out with a warning.
struct Journal {
  std::vector<CaseRecord> records;
  std::size_t complete_bytes = 0, total_bytes = 0;
};
Journal read_journal(const std::filesystem::path& path);

// Why a recorded plan fingerprint is not `now`, in words ("other repetitions: 5 recorded, 3 now").
std::string plan_difference(const nlohmann::json& recorded, const nlohmann::json& now);

// plan.json's "shard": its index, count and case ids; null for an unsharded plan.
nlohmann::json shard_json(const RunPlan& plan);

// The files a results folder holds (for tests and messages).
inline constexpr const char* kJournalFile = "journal.jsonl";
inline constexpr const char* kPlanFile = "plan.json";
inline constexpr const char* kHolderFile = ".dpgpu-run";
// Power loss may cost the cases committed in the last this-many seconds; kill -9 costs none.
inline constexpr double kSyncSeconds = 0.5;

}  // namespace dpgpu
