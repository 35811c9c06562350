// results_folder.hpp — results/<name>/ as a durable record.
//
//  - journal.jsonl holds one line per finished case (its CaseRecord with a checksum of the
//    line, journal_line.hpp), appended with one write (fdatasync at most every kSyncSeconds):
//    a case's rows are all there or none are. A line cut short by a kill is set aside on the
//    next open (the journal as it was kept as journal.damaged-*), so that case runs again;
//    it is never counted short. An unreadable or implausible line loses only itself
//    (journal_repair.hpp).
//  - Only a new or empty folder, or one dpgpu made (.dpgpu-results, or a plan.json holding a
//    plan's fingerprint), is written or moved.
//  - plan.json holds the fingerprint of the expanded plan: --resume continues only the same
//    experiment (same case ids, same repetitions and measuring settings) and says why not;
//    and the measuring conditions (isolation, worker lanes, OpenMP threads), which a run
//    continuing the folder must not change (measuring_conditions.hpp).
//  - A --filter rerun is recorded in plan.json until every case it selects was measured
//    again: --resume continues it with its filter; another --filter first is refused.
//  - One run at a time: the folder is flock()ed for the whole run; a second run is refused
//    at once, naming the holder's pid and command (in .dpgpu-run); a reader bringing the
//    derived files up to date holds it briefly, and a run waits for it.
//  - Nothing is silently replaced: a folder with results needs --resume, --filter (reruns
//    those cases, keeps the others) or --fresh (moves the old results to previous-<time>/);
//    a folder whose only record is benchmark.json is refused.
// Every other file (runs.csv, summary.csv, benchmark.json, ...) is rebuilt from the journal.
#pragma once
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "records/case_record.hpp"
#include "plan/plan.hpp"
#include "results/journal.hpp"
#include "results/record_rows.hpp"

namespace dpgpu {

struct FolderOptions {
  bool resume = false;    // keep committed cases and run the rest
  bool fresh = false;     // move existing results aside first
  bool filtered = false;  // --filter: rerun the selected cases, keep the others
  std::string filter;     // its regular expression
  // How the cases are measured beyond the plan (isolation, worker lanes, OpenMP threads:
  // measuring_conditions.hpp): a run continuing a folder must find them unchanged.
  nlohmann::json conditions;
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
  // The case's committed record, or nullptr.
  const CaseRecord* record(const std::string& case_id) const {
    auto it = records_.find(case_id);
    return it == records_.end() ? nullptr : &it->second;
  }
  std::size_t committed_count() const { return records_.size(); }
  // Appends the record to the journal (one write; fdatasync at most every kSyncSeconds and
  // at the end) and keeps it.
  void commit(CaseRecord record);
  void sync();
  // Throws WriteError when the folder was moved or deleted since it was opened (what this
  // run writes by path would go nowhere, or somewhere else).
  void check_in_place() const;
  // Removes the temporary files a failed write may have left (*.tmp).
  void remove_temporary_files() const;
  // The committed records of the plan's cases, in plan order.
  Records in_plan_order(const RunPlan& plan) const;
  // A --filter rerun (this one, or an unfinished one --resume continues): its filter, and
  // whether the case was measured again by it.
  bool filtering() const { return filtered_; }
  const std::string& filter() const { return filter_; }
  bool adopted_filter() const { return adopted_filter_; }  // --resume took it from plan.json
  bool rerun_done(const std::string& case_id) const {
    auto it = rerun_.find(case_id);
    return !token_.empty() && it != rerun_.end() && it->second == token_;
  }
  // Every case the rerun selects was measured again: plan.json no longer holds it unfinished.
  void finish_filter();
  // Where --fresh moved old results, or empty.
  const std::filesystem::path& moved_aside() const { return moved_aside_; }
  // The folder of the figures removed (those dpgpu drew) because the data under them changed, or empty.
  const std::filesystem::path& removed_figures() const { return removed_figures_; }

 private:
  void lock();
  void open_for(const RunPlan& plan, const FolderOptions& options);
  void move_everything_aside();
  void continue_in(const RunPlan& plan, const FolderOptions& options);
  void adopt_unfinished_filter(const nlohmann::json& recorded, const FolderOptions& options);
  void write_state(const RunPlan& plan, const nlohmann::json& conditions);
  void write_holder();
  void load_journal(const RunPlan& plan);
  void keep_derived_ahead_of_journal();
  std::filesystem::path dir_;
  int dir_fd_ = -1, journal_fd_ = -1;
  std::map<std::string, CaseRecord> records_;  // the latest record of each case id
  std::map<std::string, std::string> rerun_;   // its journal line's "rerun" key
  std::filesystem::path moved_aside_, removed_figures_;
  bool figures_checked_ = false, filtered_ = false, adopted_filter_ = false, wrote_holder_ = false;
  std::string filter_, token_;  // a --filter rerun's filter and its journal lines' "rerun"
  std::chrono::steady_clock::time_point last_sync_{};
};

// Why a recorded plan fingerprint is not `now`, in words ("other repetitions: 5 recorded, 3 now").
// Local time as YYYYMMDD-HHMMSS: the stamp in the names of folders and copies set aside.
std::string timestamp();

std::string plan_difference(const nlohmann::json& recorded, const nlohmann::json& now);

// The fingerprint with its case ids sorted: --resume matches cases by id, not position.
nlohmann::json without_case_order(nlohmann::json fingerprint);

// A resumed or filtered run's context.json keeps every earlier run's: the one `dir` holds
// (with its own "earlier_runs") becomes the last of context's "earlier_runs".
void keep_earlier_runs(nlohmann::json& context, const std::filesystem::path& dir);

// plan.json's "shard": its index, count and case ids; null for an unsharded plan.
nlohmann::json shard_json(const RunPlan& plan);

// The files a results folder holds (for tests and messages).
inline constexpr const char* kJournalFile = "journal.jsonl";
inline constexpr const char* kPlanFile = "plan.json";
inline constexpr const char* kHolderFile = ".dpgpu-run";
// plan.json's keys for the measuring conditions and a --filter rerun not yet finished.
inline constexpr const char* kConditions = "conditions";
inline constexpr const char* kUnfinishedFilter = "unfinished_filter";
// Says dpgpu made the folder: only such a folder (or a new or empty one) is written or moved.
inline constexpr const char* kMarkerFile = ".dpgpu-results";
// figures/'s list of the files `dpgpu plot` drew (plots/dpgpu_plots/cli.py): only these are
// removed when the data under them change.
inline constexpr const char* kFiguresManifest = ".dpgpu-figures";
// The files rebuilt from the journal.
inline constexpr const char* kDerivedFiles[] = {"runs.csv", "summary.csv", "benchmark.json",
                                                "metrics.csv", "series.csv"};
// Power loss may cost the cases committed in the last this-many seconds; kill -9 costs none.
inline constexpr double kSyncSeconds = 0.5;

}  // namespace dpgpu
