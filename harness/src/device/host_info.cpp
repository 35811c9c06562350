#include "device/host_info.hpp"

#include "dpgpu/gpu_presence.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <dirent.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>
#endif

#ifndef DPGPU_BUILD_COMMIT
#define DPGPU_BUILD_COMMIT "unknown"
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

static bool is_sha(const std::string& s) {
  return s.size() >= 7 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

std::string git_commit() {
  std::string c = run_command("git -C '" DPGPU_SOURCE_DIR "' rev-parse HEAD 2>/dev/null");
  if (!is_sha(c)) {
    std::string stamped = DPGPU_BUILD_COMMIT;
    return is_sha(stamped) ? stamped + " (build)" : "unknown";
  }
  if (!run_command("git -C '" DPGPU_SOURCE_DIR
                   "' status --porcelain --untracked-files=no 2>/dev/null")
           .empty())
    c += "-dirty";
  return c;
}

static std::string read_first_line(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  std::getline(f, line);
  return line;
}

static std::vector<std::string> g_command_line;

void set_command_line(int argc, char** argv) { g_command_line.assign(argv, argv + argc); }

// pid -> (name, utime + stime in clock ticks) of every process readable in /proc.
static std::map<int, std::pair<std::string, long long>> cpu_ticks() {
  std::map<int, std::pair<std::string, long long>> out;
  DIR* d = opendir("/proc");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::string stat = read_first_line(std::string("/proc/") + e->d_name + "/stat");
    auto open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 > stat.size())
      continue;
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {  // fields 14 and 15: utime, stime
      if (i == 14) utime = std::atoll(field.c_str());
      if (i == 15) stime = std::atoll(field.c_str());
    }
    out[pid] = {stat.substr(open + 1, close - open - 1), utime + stime};
  }
  closedir(d);
  return out;
}

nlohmann::json host_load(double min_cpu_percent) {
  nlohmann::json load = {{"time", now_iso8601()}};
  std::istringstream avg(read_first_line("/proc/loadavg"));
  double l1 = 0, l5 = 0, l15 = 0;
  std::string tasks;
  if (avg >> l1 >> l5 >> l15 >> tasks) {
    load["loadavg"] = {l1, l5, l15};
    load["runnable_tasks"] = std::atoi(tasks.c_str());  // "3/412": runnable now, this one too
  }
  constexpr double window_s = 0.2;
  auto before = cpu_ticks();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto after = cpu_ticks();
  const double hz = double(sysconf(_SC_CLK_TCK));
  const int self = int(getpid());
  std::vector<std::pair<double, nlohmann::json>> busy;
  for (auto& [pid, now] : after) {
    auto it = before.find(pid);
    if (pid == self || it == before.end()) continue;
    double percent = 100.0 * double(now.second - it->second.second) / hz / window_s;
    if (percent > min_cpu_percent)
      busy.push_back(
          {percent, {{"pid", pid}, {"name", now.first}, {"cpu_percent", int(percent + 0.5)}}});
  }
  std::sort(busy.begin(), busy.end(), [](auto& a, auto& b) { return a.first > b.first; });
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < busy.size() && i < 10; ++i) list.push_back(busy[i].second);
  load["busy_processes"] = list;
  return load;
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
  nlohmann::json facts = {{"hostname", host},
                          {"os", std::string(u.sysname) + " " + u.release},
                          {"cpu", cpu},
                          {"cores", std::thread::hardware_concurrency()},
                          {"compiler", std::string("g++ ") + __VERSION__},
                          {"cuda_built", DPGPU_WITH_CUDA != 0}};
  // Frequency scaling: "performance" holds the clock; "powersave"/"schedutil" let it move.
  std::string governor = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  facts["cpu_governor"] = governor.empty() ? "unknown (no cpufreq)" : governor;
  std::string khz = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq");
  if (!khz.empty()) facts["cpu_mhz"] = std::atof(khz.c_str()) / 1000.0;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemTotal:", 0) == 0)
      facts["memory_total_bytes"] = std::atoll(line.c_str() + 9) * 1024LL;
    if (line.rfind("MemAvailable:", 0) == 0)
      facts["memory_available_bytes"] = std::atoll(line.c_str() + 13) * 1024LL;
  }
  facts["load_start"] = host_load();
  if (!g_command_line.empty()) facts["command_line"] = g_command_line;
  return facts;
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
          {"driver",
           run_command("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null")}};
#else
  return nullptr;
#endif
}

std::string cuda_device_uuid(int device) {
#if DPGPU_WITH_CUDA
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, device) != cudaSuccess) return "";
  const auto* b = reinterpret_cast<const unsigned char*>(p.uuid.bytes);
  std::string hex;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) hex += '-';
    char two[3];
    std::snprintf(two, sizeof two, "%02x", b[i]);
    hex += two;
  }
  return "GPU-" + hex;
#else
  (void)device;
  return "";
#endif
}

nlohmann::json visible_gpus() {
  nlohmann::json out = nlohmann::json::array();
#if DPGPU_WITH_CUDA
  for (int i = 0; i < cuda_device_count(); ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    out.push_back({{"index", i}, {"name", p.name}, {"uuid", cuda_device_uuid(i)}});
  }
#endif
  return out;
}

nlohmann::json gpu_clock_reading() {
  std::string line = run_command(
      "nvidia-smi "
      "--query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active "
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
  return {{"sm_clock_mhz", f[0]}, {"memory_clock_mhz", f[1]}, {"temperature_c", f[2]},
          {"power_w", f[3]},      {"throttle_reasons", f[4]}, {"time", now_iso8601()}};
}

}  // namespace dpgpu
