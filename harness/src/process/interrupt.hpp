// interrupt.hpp — SIGINT, SIGTERM and SIGHUP during `dpgpu run`: the first stops the run
// after the case in progress is committed (so the results folder stays whole and --resume
// continues it); a second stops at once, killing the worker child too. Exit code 128 +
// signal (130, 143, 129). SIGPIPE is ignored. A signal ignored when dpgpu started (nohup,
// a background job) stays ignored, in the run and its worker children.
#pragma once
#include <sys/types.h>

namespace dpgpu {

void install_interrupt_handlers();
// The signal that asked the run to stop, or 0.
int stop_requested();
// The worker children's process groups (one per lane of `--gpus`), killed by a second signal.
void add_running_worker(pid_t process_group);
void remove_running_worker(pid_t process_group);

}  // namespace dpgpu
