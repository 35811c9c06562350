#include "device/gpu_monitor.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <vector>

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>
#endif

#include "device/host_info.hpp"

namespace dpgpu {

namespace {

int current_cuda_device() {
  int device = 0;
#if DPGPU_WITH_CUDA
  cudaGetDevice(&device);
#endif
  return device;
}

// The few NVML entry points used, resolved once.
struct Nvml {
  using Device = void*;
  int (*init)() = nullptr;
  int (*handle)(unsigned, Device*) = nullptr;
  int (*by_uuid)(const char*, Device*) = nullptr;
  int (*name)(Device, char*, unsigned) = nullptr;
  int (*clock)(Device, int, unsigned*) = nullptr;
  int (*temperature)(Device, int, unsigned*) = nullptr;
  int (*reasons)(Device, unsigned long long*) = nullptr;
  Device device = nullptr;
  bool ok = false;

  Nvml() {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    handle = reinterpret_cast<int (*)(unsigned, Device*)>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
    by_uuid = reinterpret_cast<int (*)(const char*, Device*)>(dlsym(lib, "nvmlDeviceGetHandleByUUID"));
    name = reinterpret_cast<int (*)(Device, char*, unsigned)>(dlsym(lib, "nvmlDeviceGetName"));
    clock = reinterpret_cast<int (*)(Device, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    temperature = reinterpret_cast<int (*)(Device, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetTemperature"));
    reasons = reinterpret_cast<int (*)(Device, unsigned long long*)>(dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (!reasons)
      reasons = reinterpret_cast<int (*)(Device, unsigned long long*)>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    ok = init && handle && clock && temperature && init() == 0;
    // NVML numbers every card of the host; CUDA only those it may use, in its own order:
    // the card is the one whose UUID the CUDA device has.
    uuid = cuda_device_uuid(current_cuda_device());
    ok = ok && ((by_uuid && !uuid.empty() && by_uuid(uuid.c_str(), &device) == 0) || handle(0, &device) == 0);
    char text[96] = {};
    if (ok && name && name(device, text, sizeof text) == 0) card = text;
  }
  std::string uuid, card;
};

constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;


}  // namespace

std::optional<GpuSample> sample_gpu() {
  static Nvml nvml;
  if (!nvml.ok) return std::nullopt;
  GpuSample s;
  s.name = nvml.card;
  s.uuid = nvml.uuid;
  nvml.clock(nvml.device, kClockSm, &s.sm_clock_mhz);
  nvml.clock(nvml.device, kClockMem, &s.memory_clock_mhz);
  nvml.temperature(nvml.device, kTemperatureGpu, &s.temperature_c);
  if (nvml.reasons) nvml.reasons(nvml.device, &s.reasons);
  return s;
}

std::string throttle_warning(const GpuSample& a, const GpuSample& b) {
  static const std::pair<unsigned long long, const char*> kinds[] = {
      {0x4, "sw_power_cap"}, {0x8, "hw_slowdown"}, {0x20, "sw_thermal"}, {0x40, "hw_thermal"}, {0x80, "hw_power_brake"}};
  std::vector<std::string> what;
  for (auto [bit, name] : kinds)
    if ((a.reasons | b.reasons) & bit) what.emplace_back(name);
  // A clock that fell by more than 10% while the GPU was busy at both ends.
  if (a.sm_clock_mhz > 0 && b.sm_clock_mhz * 10 < a.sm_clock_mhz * 9 && !(b.reasons & 0x1))
    what.push_back(fmt::format("SM clock {} -> {} MHz", a.sm_clock_mhz, b.sm_clock_mhz));
  return fmt::format("{}", fmt::join(what, "; "));
}

}  // namespace dpgpu
