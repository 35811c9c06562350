#include "process/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace dpgpu {

namespace {

std::atomic<int> g_signal{0};
// Slots, not a container: the signal handler reads them (lock-free atomics only).
constexpr int kWorkerSlots = 1024;
std::atomic<pid_t> g_workers[kWorkerSlots];

void say(const char* text) { (void)!write(STDERR_FILENO, text, std::strlen(text)); }

void on_signal(int sig) {
  if (g_signal.exchange(sig) == 0) {
    say("\ninterrupted: stopping after the case in progress is committed (interrupt again to stop "
        "now)\n");
    return;
  }
  for (auto& slot : g_workers)
    if (pid_t w = slot.load(); w > 0) kill(-w, SIGKILL);
  say("\ninterrupted again: stopping now; committed cases are kept (continue with --resume)\n");
  _exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a wait in poll() returns and sees the request
  // A signal ignored when dpgpu started stays ignored: `nohup` ignores SIGHUP, a shell
  // ignores SIGINT for a background job, and the user asked for exactly that.
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {  // SIGHUP: a dropped ssh session, as SIGTERM
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
        old.sa_handler == SIG_IGN)
      continue;
    sigaction(sig, &sa, nullptr);
  }
  // A closed pipe on stdout (`dpgpu run … | head`) is not a reason to die mid-commit: the
  // write fails instead, and the run goes on into its results folder.
  signal(SIGPIPE, SIG_IGN);
  // A file size limit (ulimit -f) reached is a write that fails and is reported, as a full
  // disk is, not a kill mid-commit.
  signal(SIGXFSZ, SIG_IGN);
}

int stop_requested() { return g_signal.load(); }

void add_running_worker(pid_t process_group) {
  for (auto& slot : g_workers) {
    pid_t none = 0;
    if (slot.compare_exchange_strong(none, process_group)) return;
  }
}

void remove_running_worker(pid_t process_group) {
  for (auto& slot : g_workers) {
    pid_t expected = process_group;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

}  // namespace dpgpu
