// Energy and clocks on a real GPU (skipped without one): NVML's energy counter against its
// own power samples and against nvidia-smi, on a long steady kernel; locked base clocks
// hold while the GPU works and are undone, by the lock's destructor and by its guard when
// the run holding them is killed with SIGKILL.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "device/clock_lock.hpp"
#include "device/gpu_monitor.hpp"
#include "device/power_sampler.hpp"
#include "dpgpu/error.hpp"
#include "measure/energy_window.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Every thread works (dependent FMAs) until `ns` of the GPU's global timer have passed.
__global__ void steady(double ns, float* sink) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  float a = threadIdx.x, b = 1.0001f;
  do {
    for (int i = 0; i < 256; ++i) a = a * b + 0.5f;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (double(t - t0) < ns);
  if (a == 0.123f) *sink = a;  // keeps the loop
}

// Starts the kernel on every SM for `seconds`; returns at once.
float* start_steady(double seconds) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float* sink = nullptr;
  cudaMalloc(&sink, sizeof(float));
  steady<<<sms * 4, 256>>>(seconds * 1e9, sink);
  return sink;
}

void finish(float* sink) {
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(sink);
}

void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0 && dpgpu::sample_gpu().has_value();
}

// nvidia-smi's power.draw every 100 ms, read in a thread; the readings taken in [from, to].
struct SmiPower {
  std::vector<std::pair<Clock::time_point, double>> readings;
  std::thread reader;
  explicit SmiPower(const std::string& uuid, double seconds) {
    reader = std::thread([this, uuid, seconds] {
      const std::string cmd =
          "timeout " + std::to_string(seconds) + " nvidia-smi -i " + uuid +
          " --query-gpu=power.draw --format=csv,noheader,nounits -lms 100 2>/dev/null";
      FILE* p = popen(cmd.c_str(), "r");
      if (!p) return;
      char line[128];
      while (fgets(line, sizeof line, p)) {
        double w = 0;
        if (std::sscanf(line, "%lf", &w) == 1) readings.emplace_back(Clock::now(), w);
      }
      pclose(p);
    });
  }
  double mean(Clock::time_point from, Clock::time_point to) {
    reader.join();
    double sum = 0;
    int n = 0;
    for (auto& [t, w] : readings)
      if (t >= from && t <= to) sum += w, ++n;
    return n ? sum / n : 0;
  }
};

}  // namespace

TEST(EnergyGpu, CounterAgreesWithPowerSamplesAndNvidiaSmi) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  if (!dpgpu::gpu_energy_mj()) GTEST_SKIP() << "this GPU has no NVML energy counter";
  const std::string uuid = dpgpu::sample_gpu()->uuid;
  SmiPower smi(uuid, 5.0);
  float* sink = start_steady(5.0);
  sleep_s(1.5);  // power settles; nvidia-smi has started
  const auto from = Clock::now();
  dpgpu::EnergyWindow window(dpgpu::Backend::Gpu, std::nullopt);
  sleep_s(2.5);
  const dpgpu::EnergyRecord e = window.close(1, 2.5);
  const auto to = Clock::now();
  finish(sink);
  const double smi_w = smi.mean(from, to);
  ASSERT_EQ(e.method, "nvml_counter");
  ASSERT_TRUE(e.sampled_joules.has_value());
  const double counter_w = e.power_w(), sampled_w = *e.sampled_joules / e.window_s;
  std::printf(
      "steady kernel: counter %.1f W (%.1f J over %.3f s), NVML samples %.1f W (%d samples), "
      "nvidia-smi %.1f W\n",
      counter_w, e.joules, e.window_s, sampled_w, e.samples, smi_w);
  EXPECT_GT(counter_w, 100.0) << "the kernel should load the GPU well above idle";
  EXPECT_NEAR(sampled_w / counter_w, 1.0, 0.10);
  ASSERT_GT(smi_w, 0) << "no nvidia-smi reading in the window";
  EXPECT_NEAR(smi_w / counter_w, 1.0, 0.10);
}

namespace {

// The busy SM clock range over [0.5, 1.5] s of a 2 s steady kernel.
std::pair<unsigned, unsigned> busy_sm_clock() {
  float* sink = start_steady(2.0);
  sleep_s(0.5);
  dpgpu::PowerSampler sampler;
  sleep_s(1.0);
  dpgpu::PowerTrace t = sampler.stop();
  finish(sink);
  return {t.sm_min_mhz, t.sm_max_mhz};
}

// `pid`'s children other than the clock guard (its workers, each leading a process group).
std::vector<pid_t> workers_of(pid_t pid) {
  std::vector<pid_t> out;
  for (auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;  // processes only
    std::ifstream in(e.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    int child = 0, parent = 0;
    char state = 0;
    if (close == std::string::npos || std::sscanf(text.c_str(), "%d", &child) != 1 ||
        std::sscanf(text.c_str() + close + 1, " %c %d", &state, &parent) != 2 || parent != pid)
      continue;
    std::ifstream cmd(e.path() / "cmdline");
    std::string args((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
    if (args.find("__clock-guard") == std::string::npos) out.push_back(child);
  }
  return out;
}

// Gone, or a zombie waiting for whoever adopted it.
bool ended(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  return close == std::string::npos || close + 2 >= text.size() || text[close + 2] == 'Z';
}

}  // namespace

// Two real cards: the counter of a case over both is the sum of both, so more than the first
// card's own (each counts from the driver's start).
TEST(EnergyGpu, ACaseOverTwoCardsReadsBothCounters) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  int n = 0;
  cudaGetDeviceCount(&n);
  if (n < 2) GTEST_SKIP() << "needs 2 real GPUs (this host has " << n << ")";
  if (!dpgpu::gpu_energy_mj()) GTEST_SKIP() << "this GPU has no NVML energy counter";
  EXPECT_EQ(dpgpu::cards_in_use(2), 2);
  EXPECT_EQ(dpgpu::cards_in_use(8), n < 8 ? n : 8);
  const auto one = dpgpu::gpu_energy_mj(1);
  const auto both = dpgpu::gpu_energy_mj(2);
  ASSERT_TRUE(one && both);
  EXPECT_GT(*both, *one);
  dpgpu::EnergyWindow w(dpgpu::Backend::Gpu, dpgpu::idle_gpu_power_w(2), 2);
  sleep_s(0.3);
  const dpgpu::EnergyRecord e = w.close(1, 0.3);
  EXPECT_EQ(e.cards, 2);
  EXPECT_EQ(e.method, "nvml_counter");
  EXPECT_GT(e.joules, 0);
}

TEST(EnergyGpu, BaseClockHoldsAndIsUndone) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  if (geteuid() != 0) GTEST_SKIP() << "locking clocks needs root";
  unsigned base_lo = 0, base_hi = 0;
  {
    dpgpu::ClockLock lock({"base", ""}, DPGPU_BIN);
    std::tie(base_lo, base_hi) = busy_sm_clock();
  }
  const auto [free_lo, free_hi] = busy_sm_clock();
  std::printf("busy SM clock: locked to base %u..%u MHz, unlocked %u..%u MHz\n", base_lo, base_hi,
              free_lo, free_hi);
  EXPECT_GT(base_lo, 0u);
  EXPECT_LE(base_hi - base_lo, 15u) << "the SM clock moved while locked to base";
  EXPECT_GT(free_hi, base_hi) << "unlocked, the busy GPU should boost above its base clock";
}

// `dpgpu run` holding base clocks is killed with SIGKILL: its guard undoes the lock.
TEST(EnergyGpu, GuardUndoesTheLockWhenTheRunIsKilled) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  if (geteuid() != 0) GTEST_SKIP() << "locking clocks needs root";
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("dpgpu-guard-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "slow.yaml")
      << "name: slow\nproblem: lcs\ninstances:\n  - generator: random\n"
         "    params: {n: 65536, alphabet: 4}\nsolvers:\n  - name: gpu.wavefront\n"
         "    params: {mode: cell}\nrepetitions: 50\ntimeout_s: 60\nclocks: {sm: base}\n";
  const pid_t run = fork();
  if (run == 0) {
    setpgid(0, 0);
    execl(DPGPU_BIN, DPGPU_BIN, "run", (dir / "slow.yaml").c_str(), "--out", (dir / "out").c_str(),
          (char*)nullptr);
    _exit(127);
  }
  // The lock is on once context.json is written.
  for (int i = 0; i < 300 && !fs::exists(dir / "out/context.json"); ++i) sleep_s(0.1);
  ASSERT_TRUE(fs::exists(dir / "out/context.json")) << "dpgpu run did not start";
  sleep_s(0.5);
  const auto [locked_lo, locked_hi] = busy_sm_clock();
  // The run alone, as a crash would end it: its worker (a process group of its own) dies with
  // it (PR_SET_PDEATHSIG), the guard (a session of its own) resets the clocks.
  const std::vector<pid_t> workers = workers_of(run);
  EXPECT_FALSE(workers.empty()) << "no worker child seen";
  kill(run, SIGKILL);
  waitpid(run, nullptr, 0);
  sleep_s(1.0);
  for (pid_t w : workers) {
    EXPECT_TRUE(ended(w)) << "worker " << w << " outlived the killed run";
    if (!ended(w)) kill(-w, SIGKILL);
  }
  const auto [free_lo, free_hi] = busy_sm_clock();
  std::printf("busy SM clock: while dpgpu run held base %u..%u MHz, after SIGKILL %u..%u MHz\n",
              locked_lo, locked_hi, free_lo, free_hi);
  EXPECT_GT(free_hi, locked_hi) << "the clocks stayed locked after the run was killed";
  fs::remove_all(dir);
}
