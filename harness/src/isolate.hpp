// isolate.hpp — one case in a child process (this same binary, `dpgpu __worker`), so a
// crash, a hang, a sticky CUDA error or an out-of-memory costs one row, not the sweep.
#pragma once
#include <nlohmann/json.hpp>

#include "case_result.hpp"

namespace dpgpu {

// What the child needs to rebuild the case: it re-reads the experiment and re-expands it.
struct WorkerRequest {
  std::string experiment;  // absolute path
  std::size_t instance_point = 0, loaded_index = 0, solver_point = 0;
  int repetitions = 5, warmup = 1;
  int max_repetitions = 0;  // 0: the same as repetitions (no stopping rule)
  double timeout_s = 300;
  bool verbose = false;
  bool series = true;  // when the experiment asks for series (false for the profiler's run)
  std::size_t part = 0;  // which of the file's parts
};

// Parent side: runs the request in a child, kills it after timeout_s plus a grace period.
CaseResult run_in_child(const WorkerRequest& req);

std::string worker_request_json(const WorkerRequest& req);

// Child side. `dpgpu __worker --result-fd N`: reads the request as JSON on stdin, says
// "ready" on the fd once the instance exists, then writes the CaseResult as JSON there.
// `dpgpu __worker --request FILE --result FILE` (under ncu): the same through files.
// Returns the process exit code.
int worker_main(int argc, char** argv);

}  // namespace dpgpu
