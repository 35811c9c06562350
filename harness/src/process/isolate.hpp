// isolate.hpp — one case in a child process (this same binary, `dpgpu __worker`), so a
// crash, a hang, a sticky CUDA error or an out-of-memory costs one row, not the sweep.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/case_result.hpp"
#include "records/case_spec.hpp"

namespace dpgpu {

// The child receives the case's CaseSpec itself (as JSON): the instance recipe, the solver
// and its parameters, how to measure. (The profiler's run sends a copy with 1 repetition.)
using WorkerRequest = CaseSpec;

// Where a worker child runs (a lane of `dpgpu run --gpus`, worker_pool.hpp): environment
// set for it (CUDA_VISIBLE_DEVICES, OMP_NUM_THREADS) and the CPUs it may use.
struct Placement {
  std::vector<std::string> env;  // "NAME=value", replacing the parent's NAME
  std::string cpus;              // a CPU list like "2-15,32", empty: the parent's CPUs
};

// Parent side: runs the case in a child, kills it after timeout_s plus a grace period.
CaseResult run_in_child(const WorkerRequest& req, const Placement& where = {});

// This process's environment with `set` replacing variables of the same names.
std::vector<std::string> environment_with(const std::vector<std::string>& set);

std::string worker_request_json(const WorkerRequest& req);

// The line the child writes once its instance exists (run/worker_main.cpp); the case's
// timeout runs from then.
inline constexpr std::string_view kWorkerReady = "ready\n";

}  // namespace dpgpu
