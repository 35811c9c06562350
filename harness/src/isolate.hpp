// isolate.hpp — one case in a child process (this same binary, `dpgpu __worker`), so a
// crash, a hang, a sticky CUDA error or an out-of-memory costs one row, not the sweep.
#pragma once
#include <nlohmann/json.hpp>

#include "case_result.hpp"
#include "case_spec.hpp"

namespace dpgpu {

// The child receives the case's CaseSpec itself (as JSON): the instance recipe, the solver
// and its parameters, how to measure. (The profiler's run sends a copy with 1 repetition.)
using WorkerRequest = CaseSpec;

// Parent side: runs the case in a child, kills it after timeout_s plus a grace period.
CaseResult run_in_child(const WorkerRequest& req);

std::string worker_request_json(const WorkerRequest& req);

// Child side. `dpgpu __worker --result-fd N`: reads the request as JSON on stdin, says
// "ready" on the fd once the instance exists, then writes the CaseResult as JSON there.
// `dpgpu __worker --request FILE --result FILE` (under ncu): the same through files.
// Returns the process exit code.
int worker_main(int argc, char** argv);

}  // namespace dpgpu
