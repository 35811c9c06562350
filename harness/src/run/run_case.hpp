// run_case.hpp — one planned case → its record: a planned decision recorded as it is, or
// the case measured in this process or in the worker child, then profiled when asked.
#pragma once
#include <cstdint>
#include <vector>

#include "records/case_record.hpp"
#include "process/isolate.hpp"
#include "measure/measure.hpp"
#include "profile/profiler.hpp"

namespace dpgpu {

struct ProfileSettings {
  bool on = false;
  std::vector<MetricName> metrics;
  std::int64_t max_launches = 20;
  std::string backend = "cupti";  // cupti (in the worker; ncu where it cannot start) | ncu
  NcuOptions ncu;
};

struct Experiment;
struct RunOptions;
// The experiment's profile section with the command line's --profile / --no-profile.
ProfileSettings profile_settings(const Experiment& shared, const RunOptions& opt);

// `where`: with a placement (a lane of `--gpus`), the case runs in a worker child placed
// there, isolated or not; without, as the plan says (in this process, or isolated).
CaseRecord run_case(const CaseSpec& spec, const ProfileSettings& profile,
                    const Placement* where = nullptr);

// The measuring job of a case whose instance is built (in this process or the child).
CaseJob job_of(const CaseSpec& spec, const ProblemEntry& problem, const SolverEntry& solver,
               const AnyInstance& x);

}  // namespace dpgpu
