// case_result.hpp — what measuring one case produced: one record per counted repetition,
// and its series. Crosses the child-process boundary as JSON.
#pragma once
#include <csignal>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpgpu/context.hpp"
#include "records/energy_record.hpp"

namespace dpgpu {

enum class Status { Ok, Invalid, Error, Timeout, Skipped, Oom };
const char* to_string(Status s);
Status status_from_string(const std::string& s);

struct RepRecord {
  int rep = 0;
  Status status = Status::Ok;
  std::optional<bool> valid;  // empty: nothing to check (no certificate, no known optimum)
  std::int64_t objective = 0;
  std::optional<std::uint64_t> checksum;
  double time_s = 0;
  double harness_s = 0;  // wall time of this repetition's iteration outside the timed solve
  std::map<std::string, double> phases;  // seconds
  std::map<std::string, double> counters;
  std::string message;
};

// One metric of one kernel over the profiled launches (both profiler backends; profiler.hpp
// calls it MetricStat).
struct MetricRecord {
  std::string kernel, metric, ncu_metric, unit;
  double min = 0, mean = 0, max = 0;
  std::int64_t count = 0;
};

// A case's profile: from ncu in its own pass (profiler.hpp), or from CUPTI in the worker
// after the timed solves (profiler_cupti.hpp), which puts it into the CaseResult.
struct ProfileRecord {
  bool ok = false;
  std::string backend;       // "cupti" or "ncu"
  bool unavailable = false;  // CUPTI could not start here (not a permission problem): use ncu
  std::string message, sampling;
  std::vector<MetricRecord> stats;
  double wall_s = 0;          // the profiling run
  double launches_total = 0;  // kernel launches of one solve
  double cost_x = 0;          // profiling time over one timed run (0: unknown)
  double case_wall_s = 0;     // the whole timed pass of the case
};

struct CaseResult {
  Status status = Status::Ok;  // the case as a whole (error/timeout/oom when it broke)
  std::string message;
  bool refused = false;  // an `oom` decided before solving (memory estimate): not a failure
  // The signal that killed the case's worker process, not sent by dpgpu (0: none). SIGKILL
  // is what the kernel's OOM killer sends: --resume runs such a case again (killed_outside).
  int killed_by_signal = 0;
  std::vector<RepRecord> reps;
  double wall_s = 0;                  // wall time of the counted repetitions, harness work included
  double fixed_s = 0;                 // per-case harness cost outside the repetitions
  nlohmann::json gpu_start, gpu_end;  // GpuSample fields at the case's start and end, or null
  // From one extra, untimed solve when the experiment asks for `series`; its message when
  // that solve failed (the timed results stand).
  std::vector<Context::SeriesPoint> series;
  std::string series_message;
  // The in-worker profiler's outcome when the case asked for it (CaseSpec::profile).
  std::optional<ProfileRecord> profile;
  // Energy over the timed repetitions and extra solves (energy_window.hpp); unset in journals
  // from before it.
  std::optional<EnergyRecord> energy;
};

// A case whose worker was SIGKILLed by something other than dpgpu (the OOM killer, most
// often): its record says `error`, and --resume runs it again instead of keeping it.
inline bool killed_outside(const CaseResult& r) { return r.killed_by_signal == SIGKILL; }

// A result with no measurement: the case failed (or was refused) before or instead of timing.
CaseResult failed_result(Status status, std::string message);

nlohmann::json to_json(const ProfileRecord& p);
ProfileRecord profile_record_from_json(const nlohmann::json& j);
nlohmann::json to_json(const CaseResult& r);
CaseResult case_result_from_json(const nlohmann::json& j);

}  // namespace dpgpu
