// isolate.hpp — one case in a child process (this same binary, `dpgpu __worker`), so a
// crash, a hang, a sticky CUDA error or an out-of-memory costs one row, not the sweep.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_result.hpp"
#include "case_spec.hpp"

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

// Child side. `dpgpu __worker --result-fd N [--cpus LIST]`: keeps to the CPUs of LIST, reads
// the request as JSON on stdin, says
// "ready" on the fd once the instance exists, then writes the CaseResult as JSON there.
// `dpgpu __worker --request FILE --result FILE` (under ncu): the same through files.
// Returns the process exit code.
int worker_main(int argc, char** argv);

}  // namespace dpgpu
