#include "results/folder_lock.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

std::string command_of(long pid) {
  std::ifstream in(fmt::format("/proc/{}/cmdline", pid), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string out;
  for (char c : ss.str()) out += c == '\0' ? ' ' : c;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool alive(long pid) { return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno != ESRCH); }

long pid_in_holder_file(const std::string& holder_file) {
  long pid = 0;
  if (std::sscanf(holder_file.c_str(), "pid %ld", &pid) != 1) return 0;
  return pid;
}

}  // namespace

FlockHolder flock_holder(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  // "1: FLOCK  ADVISORY  WRITE 21712 fe:00:10970354 0 EOF"; a waiter's line has "->" after
  // the number. Device numbers are hex.
  const std::string inode =
      fmt::format("{:02x}:{:02x}:{}", major(st.st_dev), minor(st.st_dev), st.st_ino);
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    std::istringstream in(line);
    std::string number, kind, advisory, mode, where;
    long pid = 0;
    if (!(in >> number >> kind) || kind != "FLOCK") continue;
    if (!(in >> advisory >> mode >> pid >> where) || where != inode || pid <= 0) continue;
    return {pid, command_of(pid)};
  }
  return {};
}

std::string holder_text(const FlockHolder& lock) {
  if (lock.pid <= 0) return "a process /proc/locks does not name";
  return fmt::format("pid {}: {}", lock.pid, lock.command.empty() ? "ended since" : lock.command);
}

HolderKind holder_kind(const std::string& holder_file, const FlockHolder& lock) {
  const long named = pid_in_holder_file(holder_file);
  if (named <= 0 || (lock.pid > 0 && lock.pid != named)) return HolderKind::Reader;
  return alive(named) ? HolderKind::Run : HolderKind::EndedRun;
}

double wait_for(HolderKind kind) {
  switch (kind) {
    case HolderKind::Run: return 0;
    case HolderKind::EndedRun: return kEndedRunWaitS;
    case HolderKind::Reader: return kReaderWaitS;
  }
  return 0;
}

std::string lock_refusal(const fs::path& dir, const std::string& holder_file,
                         const FlockHolder& lock, double waited_s) {
  std::string named = holder_file;
  while (!named.empty() && named.back() == '\n') named.pop_back();
  switch (holder_kind(holder_file, lock)) {
    case HolderKind::Run:
      return fmt::format(
          "{} is in use by another dpgpu run ({}); wait for it to finish or use another --out",
          dir.string(), named);
    case HolderKind::EndedRun:
      return fmt::format(
          "{} is still locked {:.0f} s after the dpgpu run that held it ended ({}), by a process "
          "it started ({}); wait for that to end or use another --out",
          dir.string(), waited_s, named,
          lock.pid > 0 ? fmt::format("pid {}: {}", lock.pid, lock.command) : "pid unknown");
    case HolderKind::Reader: break;
  }
  return fmt::format(
      "{} is locked by {}, which is not a dpgpu run writing results ({}): readers lock a folder "
      "for a while (dpgpu plot, report and compare while they rebuild its derived files from "
      "the journal, dpgpu merge while it reads it). Waited {:.0f} s for it; wait for it to "
      "finish or use another --out",
      dir.string(), holder_text(lock),
      named.empty() ? "no .dpgpu-run names one" : ".dpgpu-run names " + named + ", not it",
      waited_s);
}

}  // namespace dpgpu
