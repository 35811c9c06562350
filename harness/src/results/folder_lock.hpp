// folder_lock.hpp — who holds a results folder's flock, so that a refused run says truly
// who. A `dpgpu run` holds it for the whole run and names itself in .dpgpu-run; readers
// hold it briefly without a holder file: `dpgpu plot`, `report` and `compare` while they
// rebuild the derived files from the journal (report/stale_outputs.cpp), `dpgpu merge`
// while it reads a shard's folder. A run waits for a reader (up to kReaderWaitS), and is
// refused at once by another run.
#pragma once
#include <filesystem>
#include <string>

namespace dpgpu {

// The process holding a flock on `path`, from /proc/locks: its pid (0 when none is listed
// or /proc/locks cannot be read) and command line (empty once it has ended).
struct FlockHolder {
  long pid = 0;
  std::string command;
};
FlockHolder flock_holder(const std::filesystem::path& path);

// The holder as a refusal names it: "pid 12: dpgpu plot R" ("ended since" for a command
// gone by now), or "a process /proc/locks does not name".
std::string holder_text(const FlockHolder& lock);

// Who holds a folder's lock, from .dpgpu-run's text ("pid 12: dpgpu run ...", or empty)
// and the lock's holder:
//  - Run: a running dpgpu run that .dpgpu-run names (the lock is its, or /proc/locks is silent);
//  - EndedRun: .dpgpu-run names a run that has ended; a child it forked may hold the lock
//    for a moment;
//  - Reader: anything .dpgpu-run does not name (plot, report, compare, merge, or another program).
enum class HolderKind { Run, EndedRun, Reader };
HolderKind holder_kind(const std::string& holder_file, const FlockHolder& lock);

// How long a starting run waits for each kind to let go before it is refused.
inline constexpr double kEndedRunWaitS = 5;
inline constexpr double kReaderWaitS = 120;
double wait_for(HolderKind kind);

// Why `dir` cannot be locked, naming its holder, after waiting `waited_s` seconds.
std::string lock_refusal(const std::filesystem::path& dir, const std::string& holder_file,
                         const FlockHolder& lock, double waited_s);

}  // namespace dpgpu
