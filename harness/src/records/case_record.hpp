// case_record.hpp — one finished case as the results folder keeps it: the plan's CaseSpec,
// what measuring it produced (typed: statuses are enums, numbers are numbers) and its
// profile. One line of journal.jsonl each; every output file is formatted from these.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/case_result.hpp"
#include "records/case_spec.hpp"

namespace dpgpu {

// The work one run did (README: cell updates for DP, nodes for search): the case's work
// counter where its solver names one (nullopt when the run did not set it), else the
// instance's work.
std::optional<double> work_of(const CaseSpec& spec, const RepRecord& rep);

struct CaseRecord {
  CaseSpec spec;
  CaseResult result;
  std::optional<ProfileRecord> profile;
  double wall_s = 0;      // the case from start to commit
  std::string finished;   // ISO 8601
  nlohmann::json worker;  // with `--gpus`: the lane that ran it (worker_pool.hpp); else null
};

nlohmann::json to_json(const CaseRecord& r);
CaseRecord case_record_from_json(const nlohmann::json& j);

// A planned decision recorded without running: skipped, or refused (a planned oom).
CaseResult unrun_result(const CaseSpec& spec);

// True when the case counts against the exit code: failed, timed out or invalid at run
// time. Skips and planned `oom` refusals are not failures.
bool is_failure(const CaseRecord& r, Status effective_status);

}  // namespace dpgpu
