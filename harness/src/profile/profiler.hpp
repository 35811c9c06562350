// profiler.hpp — the paper's profiler metrics through Nsight Compute: a GPU case runs once
// more under `ncu` (apart from its timed runs, so profiling never touches timings), and its
// per-launch metric values become min/mean/max per kernel in metrics.csv.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "records/case_result.hpp"
#include "records/csv_table.hpp"
#include "process/isolate.hpp"

namespace dpgpu {

// The paper's nvprof names and the Hopper metrics that measure the same thing (DESIGN.md).
struct MetricName {
  std::string name;  // as written in the experiment (paper name or raw ncu name)
  std::string ncu;   // the Nsight Compute metric
};
std::vector<MetricName> resolve_metrics(const std::vector<std::string>& names);
const std::map<std::string, std::string>& paper_metrics();
std::vector<std::string> default_metrics();  // gld_efficiency, warp_execution_efficiency, ipc

// Which launches both backends profile, of one solve (one rule, so CUPTI and ncu measure
// the same launches): a solver that marks its launches with ctx.profiled_launch() gets its
// marked launches only, every `stride`-th when there are more than max_launches; one that
// marks none gets its first max_launches launches.
struct ProfilePlan {
  std::int64_t launch_count = 0;  // at most this many (ncu --launch-count, CUPTI's ranges); 0: all
  std::int64_t stride = 0;        // >0: marked launches only, every stride-th (ncu:
                                  // --profile-from-start off and DPGPU_PROFILE_STRIDE)
  std::string sampling;           // "all 12", "all 12 marked of 30", "every 25th of 5000",
                                  // "first 200 of 5000"
};
ProfilePlan plan_profile(std::int64_t max_launches, double kernel_launches,
                         double annotated_launches);

// One metric of one kernel over the launches profiled: the record both backends write.
using MetricStat = MetricRecord;

struct ProfileOutcome {
  bool ok = false;
  std::string message;  // why not, when not ok
  std::vector<MetricStat> stats;
  double wall_s = 0;
  std::int64_t launches_profiled = 0;
};

// Parses ncu's `--csv --page raw` output (one row per launch, a units row under the header).
std::vector<MetricStat> parse_ncu_csv(const std::string& text,
                                      const std::vector<MetricName>& metrics,
                                      std::int64_t* launches = nullptr);

// `cause` and its fix when the GPU's performance counters may not be read by this user
// (ncu's ERR_NVGPUCTRPERM, CUPTI's CUPTI_ERROR_INSUFFICIENT_PRIVILEGES).
std::string counter_permission_help(const std::string& cause);

// Finds ncu ($DPGPU_NCU, PATH, /usr/local/cuda/bin), or empty.
std::string find_ncu();

// How ncu replays each profiled launch: `cache_control` all (flush caches before every pass,
// ncu's default: each pass sees the same cold caches) or none (cheaper; later passes see warm
// caches); `replay` kernel (save and restore device memory around each launch's passes) or
// application (rerun the whole worker once per pass).
struct NcuOptions {
  std::string cache_control = "all";
  std::string replay = "kernel";
};

// The request ncu's worker runs: exactly one solve (no warm-up, no extra repetitions, no
// energy window's extra solves, no cold flush, no series), so the launches it profiles are
// the ones plan_profile chose of that solve, as the CUPTI backend's one profiled solve.
WorkerRequest ncu_request(const WorkerRequest& req);

// ncu's command line (metrics as a raw CSV page into dir/ncu.csv, the launches `plan`
// names, then `self` as a worker on dir/request.json) and the extra environment of the
// worker under it (`where`'s, and DPGPU_PROFILE_STRIDE when only marked launches count).
std::vector<std::string> ncu_argv(const std::string& ncu, const std::vector<MetricName>& metrics,
                                  const ProfilePlan& plan, const NcuOptions& options,
                                  const std::string& dir, const std::string& self);
std::vector<std::string> ncu_environment(const ProfilePlan& plan, const Placement& where);

// `where`: the environment of the case's lane (its CUDA_VISIBLE_DEVICES), for ncu and its child.
ProfileOutcome profile_case(const WorkerRequest& req, const std::vector<MetricName>& metrics,
                            const ProfilePlan& plan, const NcuOptions& options = {},
                            const Placement& where = {});

}  // namespace dpgpu
