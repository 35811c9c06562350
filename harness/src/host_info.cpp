#include "host_info.hpp"

#include "dpgpu/gpu_presence.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>
#endif

#ifndef DPGPU_SOURCE_DIR
#define DPGPU_SOURCE_DIR "."
#endif

namespace dpgpu {

static std::string run_command(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf;
  while (fgets(buf.data(), int(buf.size()), p)) out += buf.data();
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

int cuda_device_count() {
#if DPGPU_WITH_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
#else
  return 0;
#endif
}

std::string gpu_unavailable_reason() {
  const std::string why = no_usable_gpu_reason();
  if (why.empty() || !DPGPU_WITH_CUDA) return why;
  return "no usable GPU (" + why + ")";
}

std::string now_iso8601() {
  auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string git_commit() {
  std::string c = run_command("git -C '" DPGPU_SOURCE_DIR "' rev-parse HEAD 2>/dev/null");
  if (c.empty()) return "unknown";
  if (!run_command("git -C '" DPGPU_SOURCE_DIR "' status --porcelain --untracked-files=no 2>/dev/null").empty())
    c += "-dirty";
  return c;
}

nlohmann::json host_facts() {
  utsname u{};
  uname(&u);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string cpu;
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  return {{"hostname", host},
          {"os", std::string(u.sysname) + " " + u.release},
          {"cpu", cpu},
          {"cores", std::thread::hardware_concurrency()},
          {"compiler", std::string("g++ ") + __VERSION__},
          {"cuda_built", DPGPU_WITH_CUDA != 0}};
}

nlohmann::json gpu_facts() {
#if DPGPU_WITH_CUDA
  if (cuda_device_count() == 0) return nullptr;
  int dev = 0, driver = 0, runtime = 0, sm_clock = 0, mem_clock = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return nullptr;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaDeviceGetAttribute(&sm_clock, cudaDevAttrClockRate, dev);
  cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, dev);
  return {{"name", p.name},
          {"compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
          {"sm_count", p.multiProcessorCount},
          {"global_memory_bytes", p.totalGlobalMem},
          {"l2_bytes", p.l2CacheSize},
          {"max_sm_clock_khz", sm_clock},
          {"max_memory_clock_khz", mem_clock},
          {"cuda_driver_version", driver},
          {"cuda_runtime_version", runtime},
          {"driver", run_command("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null")}};
#else
  return nullptr;
#endif
}

nlohmann::json gpu_clock_reading() {
  std::string line = run_command(
      "nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active "
      "--format=csv,noheader,nounits 2>/dev/null | head -n 1");
  if (line.empty()) return nullptr;
  std::vector<std::string> f;
  std::size_t start = 0;
  while (true) {
    auto comma = line.find(',', start);
    auto field = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!field.empty() && field.front() == ' ') field.erase(0, 1);
    f.push_back(field);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (f.size() < 5) return {{"raw", line}};
  return {{"sm_clock_mhz", f[0]}, {"memory_clock_mhz", f[1]}, {"temperature_c", f[2]}, {"power_w", f[3]},
          {"throttle_reasons", f[4]}, {"time", now_iso8601()}};
}

}  // namespace dpgpu
