// clock_lock.hpp — NVML's locked clocks for the length of a `dpgpu run` (clocks: in the
// experiment, or --lock-clocks), held by the run's own process, never by a worker child.
//
// What is guaranteed: the locks are reset (nvmlDeviceResetGpuLockedClocks and
// ...MemoryLockedClocks: the driver's default, unlocked clocks) when the run ends normally,
// on an error (the destructor), after SIGINT/SIGTERM (the run stops after the case in
// progress, then the destructor), and when the run's process dies in any other way (a second
// signal, a crash, SIGKILL): a guard process (`dpgpu __clock-guard`), started with the lock
// in its own session, waits on a pipe only the run holds and resets the clocks when it
// closes. A worker child that dies takes nothing with it (it never held the lock). Not
// guaranteed: a machine that loses power or a driver reload (both reset the clocks anyway),
// or the guard itself killed with SIGKILL while the run is killed too.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/clock_request.hpp"

namespace dpgpu {

class ClockLock {
 public:
  // Locks every GPU this process sees. InputError saying why and the fix when the request
  // cannot be honoured (no GPU, no permission, not supported). `guard_program`: the dpgpu
  // binary that runs the guard ("" : no guard process, for tests).
  explicit ClockLock(const ClockRequest& request,
                     const std::string& guard_program = "/proc/self/exe");
  ~ClockLock();
  ClockLock(const ClockLock&) = delete;
  ClockLock& operator=(const ClockLock&) = delete;

  // What was locked, for context.json: the request, and per card the clocks asked and the
  // guard's pid.
  nlohmann::json facts() const;

 private:
  void reset();
  ClockRequest request_;
  std::vector<std::string> uuids_;
  nlohmann::json cards_ = nlohmann::json::array();
  pid_t guard_ = -1;
  int guard_pipe_ = -1;  // the write end; its close tells the guard to reset
};

// Resets the locked clocks of these cards (GPU, and memory when `memory`); the guard's work
// and the destructor's. Returns the errors, one per line, or empty.
std::string reset_locked_clocks(const std::vector<std::string>& uuids, bool memory);

// `dpgpu __clock-guard [--memory] UUID...`: waits until its standard input closes, then
// resets those cards' clocks. Ignores SIGINT, SIGTERM and SIGHUP.
int clock_guard_main(int argc, char** argv);

// Why the request cannot hold on this host's GPUs (a clock outside the supported range),
// or empty, also where no GPU or NVML is present (then nothing can be checked).
std::string check_clocks_on_device(const ClockRequest& request);

}  // namespace dpgpu
