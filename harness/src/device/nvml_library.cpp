#include "device/nvml_library.hpp"

#include <dlfcn.h>

namespace dpgpu {

namespace {

template <typename F>
void resolve(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
}

NvmlLibrary load() {
  NvmlLibrary n;
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return n;
  int (*init)() = nullptr;
  resolve(lib, init, "nvmlInit_v2");
  resolve(lib, n.count, "nvmlDeviceGetCount_v2");
  resolve(lib, n.handle, "nvmlDeviceGetHandleByIndex_v2");
  resolve(lib, n.by_uuid, "nvmlDeviceGetHandleByUUID");
  resolve(lib, n.name, "nvmlDeviceGetName");
  resolve(lib, n.uuid, "nvmlDeviceGetUUID");
  resolve(lib, n.clock, "nvmlDeviceGetClockInfo");
  resolve(lib, n.max_clock, "nvmlDeviceGetMaxClockInfo");
  resolve(lib, n.temperature, "nvmlDeviceGetTemperature");
  resolve(lib, n.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!n.reasons) resolve(lib, n.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  resolve(lib, n.energy_mj, "nvmlDeviceGetTotalEnergyConsumption");
  resolve(lib, n.power_mw, "nvmlDeviceGetPowerUsage");
  resolve(lib, n.memory_clocks, "nvmlDeviceGetSupportedMemoryClocks");
  resolve(lib, n.graphics_clocks, "nvmlDeviceGetSupportedGraphicsClocks");
  resolve(lib, n.lock_gpu_clocks, "nvmlDeviceSetGpuLockedClocks");
  resolve(lib, n.reset_gpu_clocks, "nvmlDeviceResetGpuLockedClocks");
  resolve(lib, n.lock_memory_clocks, "nvmlDeviceSetMemoryLockedClocks");
  resolve(lib, n.reset_memory_clocks, "nvmlDeviceResetMemoryLockedClocks");
  resolve(lib, n.error_string, "nvmlErrorString");
  n.ok = init && n.handle && n.clock && n.temperature && init() == kNvmlSuccess;
  return n;
}

}  // namespace

std::string NvmlLibrary::error(int code) const {
  const char* text = error_string ? error_string(code) : nullptr;
  return text ? std::string(text) : "NVML error " + std::to_string(code);
}

bool NvmlLibrary::device(const std::string& id, Device* out) const {
  return ok && by_uuid && !id.empty() && by_uuid(id.c_str(), out) == kNvmlSuccess;
}

const NvmlLibrary& nvml_library() {
  static const NvmlLibrary n = load();
  return n;
}

}  // namespace dpgpu
