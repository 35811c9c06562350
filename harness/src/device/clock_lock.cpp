#include "device/clock_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "device/host_info.hpp"
#include "device/nvml_library.hpp"
#include "dpgpu/error.hpp"

namespace dpgpu {

namespace {

// The cards this process sees (CUDA's order and CUDA_VISIBLE_DEVICES), else every NVML card.
std::vector<std::string> visible_uuids() {
  std::vector<std::string> out;
  for (auto& g : visible_gpus()) out.push_back(g.value("uuid", ""));
  const NvmlLibrary& n = nvml_library();
  unsigned count = 0;
  if (out.empty() && n.ok && n.count && n.uuid && n.count(&count) == kNvmlSuccess)
    for (unsigned i = 0; i < count; ++i) {
      NvmlLibrary::Device d = nullptr;
      char text[96] = {};
      if (n.handle(i, &d) == kNvmlSuccess && n.uuid(d, text, sizeof text) == kNvmlSuccess)
        out.push_back(text);
    }
  out.erase(std::remove(out.begin(), out.end(), std::string()), out.end());
  return out;
}

std::string refusal(int code, const std::string& what) {
  const NvmlLibrary& n = nvml_library();
  if (code == kNvmlNoPermission)
    return fmt::format(
        "clocks: {}: {} — locking clocks needs root (or CAP_SYS_ADMIN): run dpgpu as root, have an "
        "administrator lock them (nvidia-smi -lgc / -lmc), or remove clocks: / --lock-clocks",
        what, n.error(code));
  if (code == kNvmlNotSupported)
    return fmt::format(
        "clocks: {}: {} — this GPU or driver cannot lock clocks; remove clocks: / --lock-clocks",
        what, n.error(code));
  return fmt::format("clocks: {}: {}", what, n.error(code));
}

// The MHz a setting stands for on this card ("max": the card's maximum of that clock).
unsigned mhz_of(const std::string& v, NvmlLibrary::Device d, int clock_type) {
  if (v != "max") return unsigned(std::stoul(v));
  unsigned mhz = 0;
  const NvmlLibrary& n = nvml_library();
  if (!n.max_clock || n.max_clock(d, clock_type, &mhz) != kNvmlSuccess || mhz == 0)
    throw InputError("clocks: NVML does not report this GPU's maximum clock; give a number of MHz");
  return mhz;
}

// Locks one card; its facts for context.json.
nlohmann::json lock_card(const ClockRequest& r, const std::string& uuid) {
  const NvmlLibrary& n = nvml_library();
  NvmlLibrary::Device d = nullptr;
  if (!n.device(uuid, &d)) throw InputError("clocks: NVML does not know the GPU " + uuid);
  nlohmann::json facts{{"uuid", uuid}};
  if (!r.sm.empty()) {
    if (!n.lock_gpu_clocks)
      throw InputError("clocks: this driver's NVML has no nvmlDeviceSetGpuLockedClocks");
    const unsigned mhz = r.sm == "base" ? kNvmlClockLimitTdp : mhz_of(r.sm, d, kNvmlClockGraphics);
    if (int rc = n.lock_gpu_clocks(d, mhz, mhz); rc != kNvmlSuccess)
      throw InputError(refusal(rc, "locking the SM clock of " + uuid + " to " + r.sm));
    facts["sm"] = r.sm == "base" ? nlohmann::json("base (TDP)") : nlohmann::json(mhz);
  }
  if (!r.memory.empty()) {
    if (!n.lock_memory_clocks)
      throw InputError("clocks: this driver's NVML has no nvmlDeviceSetMemoryLockedClocks");
    const unsigned mhz = mhz_of(r.memory, d, kNvmlClockMem);
    if (int rc = n.lock_memory_clocks(d, mhz, mhz); rc != kNvmlSuccess)
      throw InputError(refusal(rc, "locking the memory clock of " + uuid + " to " + r.memory));
    facts["memory_mhz"] = mhz;
  }
  return facts;
}

// Starts `program __clock-guard UUID...` in its own session, its stdin the read end of a
// pipe whose write end (close-on-exec: no worker inherits it) the run keeps.
pid_t start_guard(const std::string& program, const std::vector<std::string>& uuids, bool memory,
                  int* write_end) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
  std::vector<std::string> args{program, "__clock-guard"};
  if (memory) args.push_back("--memory");
  args.insert(args.end(), uuids.begin(), uuids.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setsid();  // the terminal's Ctrl-C reaches the run, not the guard
    dup2(fds[0], STDIN_FILENO);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  close(fds[0]);
  if (pid < 0) {
    close(fds[1]);
    return -1;
  }
  *write_end = fds[1];
  return pid;
}

}  // namespace

std::string reset_locked_clocks(const std::vector<std::string>& uuids, bool memory) {
  const NvmlLibrary& n = nvml_library();
  std::string errors;
  for (auto& uuid : uuids) {
    NvmlLibrary::Device d = nullptr;
    if (!n.device(uuid, &d)) {
      errors += "no GPU " + uuid + "\n";
      continue;
    }
    if (n.reset_gpu_clocks)
      if (int rc = n.reset_gpu_clocks(d); rc != kNvmlSuccess)
        errors += uuid + ": SM clock: " + n.error(rc) + "\n";
    if (memory && n.reset_memory_clocks)
      if (int rc = n.reset_memory_clocks(d); rc != kNvmlSuccess)
        errors += uuid + ": memory clock: " + n.error(rc) + "\n";
  }
  return errors;
}

ClockLock::ClockLock(const ClockRequest& request, const std::string& guard_program)
    : request_(request) {
  if (!nvml_library().ok)
    throw InputError("clocks: no NVML here (no NVIDIA driver): remove clocks: / --lock-clocks");
  uuids_ = visible_uuids();
  if (uuids_.empty()) throw InputError("clocks: no GPU to lock: remove clocks: / --lock-clocks");
  // The guard first, so a lock never exists without it.
  if (!guard_program.empty()) {
    guard_ = start_guard(guard_program, uuids_, !request_.memory.empty(), &guard_pipe_);
    if (guard_ < 0) throw std::runtime_error("clocks: cannot start the clock guard process");
  }
  try {
    for (auto& uuid : uuids_) cards_.push_back(lock_card(request_, uuid));
  } catch (...) {
    reset();
    throw;
  }
}

ClockLock::~ClockLock() { reset(); }

void ClockLock::reset() {
  if (auto errors = reset_locked_clocks(uuids_, !request_.memory.empty()); !errors.empty())
    std::cerr << "warning: resetting locked clocks: " << errors;
  if (guard_pipe_ >= 0) close(guard_pipe_);
  if (guard_ > 0) waitpid(guard_, nullptr, 0);
  guard_pipe_ = -1, guard_ = -1;
}

nlohmann::json ClockLock::facts() const {
  return {{"requested", request_.str()},
          {"cards", cards_},
          {"guard_pid", guard_},
          {"restore", "reset to the driver's default (unlocked) when the run ends, by any path"}};
}

std::string check_clocks_on_device(const ClockRequest& r) {
  const NvmlLibrary& n = nvml_library();
  std::string out;
  for (auto& uuid : visible_uuids()) {
    NvmlLibrary::Device d = nullptr;
    if (!n.device(uuid, &d) || !n.memory_clocks || !n.graphics_clocks) continue;
    unsigned mem[64] = {}, mem_count = 64, sm[512] = {}, sm_count = 512;
    if (n.memory_clocks(d, &mem_count, mem) != kNvmlSuccess || mem_count == 0) continue;
    const auto [mem_lo, mem_hi] = std::minmax_element(mem, mem + mem_count);
    if (n.graphics_clocks(d, *mem_hi, &sm_count, sm) != kNvmlSuccess || sm_count == 0) continue;
    const auto [sm_lo, sm_hi] = std::minmax_element(sm, sm + sm_count);
    auto outside = [&](const std::string& v, unsigned lo, unsigned hi, const char* key) {
      if (v.empty() || v == "max" || v == "base") return;
      const unsigned mhz = unsigned(std::stoul(v));
      if (mhz < lo || mhz > hi)
        out += fmt::format("clocks.{}: {} MHz is outside what {} supports ({} to {} MHz)\n", key,
                           mhz, uuid, lo, hi);
    };
    outside(r.sm, *sm_lo, *sm_hi, "sm");
    outside(r.memory, *mem_lo, *mem_hi, "memory");
  }
  return out;
}

int clock_guard_main(int argc, char** argv) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_IGN);
  bool memory = false;
  std::vector<std::string> uuids;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--memory")
      memory = true;
    else
      uuids.push_back(a);
  }
  char buf[64];
  while (read(STDIN_FILENO, buf, sizeof buf) > 0) {
  }
  const std::string errors = reset_locked_clocks(uuids, memory);
  if (!errors.empty()) std::cerr << "dpgpu clock guard: " << errors;
  return errors.empty() ? 0 : 1;
}

}  // namespace dpgpu
