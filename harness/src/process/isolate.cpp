#include "process/isolate.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "dpgpu/error.hpp"
#include "process/interrupt.hpp"

extern char** environ;

namespace dpgpu {

namespace {

// The child says "ready" once its instance exists; the case's timeout runs from then.
constexpr double kSetupSeconds = 600;  // process start-up and instance generation
constexpr double kGraceSeconds = 5;    // past timeout_s, for a solver that ignores its deadline
constexpr std::size_t kStderrTail = 4000;

}  // namespace

std::string worker_request_json(const WorkerRequest& r) { return to_json(r).dump(); }

namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (pipe2(fd, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  ~Pipe() { close_both(); }
  void close_end(int i) {
    if (fd[i] >= 0) close(fd[i]);
    fd[i] = -1;
  }
  void close_both() { close_end(0), close_end(1); }
};

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return {};
  auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

std::vector<std::string> environment_with(const std::vector<std::string>& set) {
  std::vector<std::string> env;
  auto name = [](const std::string& e) { return e.substr(0, e.find('=')); };
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    if (std::none_of(set.begin(), set.end(),
                     [&](const std::string& s) { return name(s) == name(entry); }))
      env.push_back(entry);
  }
  env.insert(env.end(), set.begin(), set.end());
  return env;
}

namespace {

// Writes to a child that may have died: SIGPIPE is blocked in this thread only (lanes write
// concurrently, so the process-wide disposition is not theirs to change), a pending one is
// consumed before it is unblocked.
void write_ignoring_sigpipe(int fd, const std::string& text) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  (void)!write(fd, text.data(), text.size());
  timespec zero{0, 0};
  while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

}  // namespace

namespace {

// `dpgpu __worker` in its own process group, its stdin, fd 3 and stderr on the pipes; the
// error number when it could not start.
int spawn_worker(const Placement& where, Pipe& in, Pipe& result, Pipe& err, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&actions, result.fd[1], 3);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);

  std::string self = "/proc/self/exe";
  std::vector<std::string> args{self, "__worker", "--result-fd",
                                "3",  "--parent", std::to_string(getpid())};
  if (!where.cpus.empty()) args.insert(args.end(), {"--cpus", where.cpus});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = environment_with(where.env);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  int rc = posix_spawn(&pid, self.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return rc;
}

// What the worker wrote: its result (after the ready line) and the tail of its stderr.
struct WorkerOutput {
  std::string out, errtext;
  bool timed_out = false, ready = false;
};

// Reads the worker's result and stderr until both close or its time is up: kSetupSeconds
// until it says it is ready (the instance built), then its timeout_s and a grace.
WorkerOutput read_worker(const WorkerRequest& req, int result_fd, int err_fd) {
  WorkerOutput w;
  auto limit = std::chrono::steady_clock::now() + std::chrono::duration<double>(kSetupSeconds);
  pollfd fds[2] = {{result_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    limit - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      w.timed_out = true;
      break;
    }
    int n = poll(fds, 2, int(std::min<long long>(left, 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;  // a timeout or a signal (the run stops after this case)
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got <= 0) {
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      if (i == 0) {
        w.out.append(buf, std::size_t(got));
        if (!w.ready && w.out.size() >= kWorkerReady.size() &&
            w.out.compare(0, kWorkerReady.size(), kWorkerReady) == 0) {
          w.ready = true;
          w.out.erase(0, kWorkerReady.size());
          // A profiled case solves once more after its timed solves, with a timeout_s of its own.
          const double budget = req.measure.timeout_s * (req.profile ? 2 : 1) + kGraceSeconds;
          limit = std::chrono::steady_clock::now() + std::chrono::duration<double>(budget);
        }
      } else {
        if (req.verbose) std::cerr.write(buf, got);
        w.errtext.append(buf, std::size_t(got));
        if (w.errtext.size() > 2 * kStderrTail) w.errtext.erase(0, w.errtext.size() - kStderrTail);
      }
    }
  }
  return w;
}

// The case's result from what the finished worker wrote and how it ended.
CaseResult worker_result(const WorkerRequest& req, const WorkerOutput& w, int wstatus) {
  if (w.timed_out && !w.ready)
    return failed_result(
        Status::Timeout,
        fmt::format("killed: no instance after {:.0f} s of set-up", kSetupSeconds));
  if (w.timed_out)
    return failed_result(
        Status::Timeout,
        fmt::format("killed after {:.0f} s (timeout_s {} plus {:.0f} s grace)",
                    req.measure.timeout_s + kGraceSeconds, req.measure.timeout_s, kGraceSeconds));
  if (WIFSIGNALED(wstatus)) {
    int sig = WTERMSIG(wstatus);
    CaseResult killed = failed_result(
        Status::Error,
        fmt::format(
            "worker killed by signal {} ({}){}{}{}", sig, strsignal(sig),
            sig == SIGKILL ? ", not by dpgpu (the OOM killer?); --resume runs it again" : "",
            w.errtext.empty() ? "" : ": ", last_line(w.errtext)));
    killed.killed_by_signal = sig;
    return killed;
  }
  if (w.out.empty())
    return failed_result(
        Status::Error,
        fmt::format("worker exited with code {} and no result{}{}", WEXITSTATUS(wstatus),
                    w.errtext.empty() ? "" : ": ", last_line(w.errtext)));
  try {
    return case_result_from_json(nlohmann::json::parse(w.out));
  } catch (const std::exception& e) {
    return failed_result(Status::Error, std::string("unreadable worker result: ") + e.what());
  }
}

}  // namespace

CaseResult run_in_child(const WorkerRequest& req, const Placement& where) {
  Pipe in, result, err;
  pid_t pid = 0;
  if (int rc = spawn_worker(where, in, result, err, pid); rc != 0)
    return failed_result(Status::Error,
                         std::string("cannot start worker process: ") + std::strerror(rc));
  add_running_worker(pid);
  in.close_end(0), result.close_end(1), err.close_end(1);

  write_ignoring_sigpipe(in.fd[1], worker_request_json(req));
  in.close_end(1);

  const WorkerOutput w = read_worker(req, result.fd[0], err.fd[0]);
  if (w.timed_out) kill(-pid, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  remove_running_worker(pid);
  return worker_result(req, w, wstatus);
}

}  // namespace dpgpu
