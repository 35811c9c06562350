// worker_main.hpp — the worker child's entry point (the other end of process/isolate.hpp).
#pragma once

namespace dpgpu {

// Child side. `dpgpu __worker --result-fd N [--cpus LIST] [--parent PID]`: dies with its
// parent (PR_SET_PDEATHSIG; exits at once when PID is no longer its parent), keeps to the
// CPUs of LIST, reads the request as JSON on stdin, says "ready" on the fd once the instance
// exists, then writes the CaseResult as JSON there.
// `dpgpu __worker --request FILE --result FILE` (under ncu): the same through files.
// Returns the process exit code.
int worker_main(int argc, char** argv);

}  // namespace dpgpu
