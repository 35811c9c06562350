#include "device/nvml_library.hpp"

#include <dlfcn.h>

#include <type_traits>

namespace dpgpu {

namespace {

// An entry point's slot in NvmlLibrary and its NVML name; every slot is a function pointer.
struct Symbol {
  void** slot;
  const char* name;
};

template <typename F>
Symbol symbol(F& f, const char* name) {
  static_assert(std::is_pointer_v<F> && std::is_function_v<std::remove_pointer_t<F>>);
  return {reinterpret_cast<void**>(&f), name};
}

NvmlLibrary load() {
  NvmlLibrary n;
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return n;
  int (*init)() = nullptr;
  const Symbol symbols[] = {
      symbol(init, "nvmlInit_v2"),
      symbol(n.count, "nvmlDeviceGetCount_v2"),
      symbol(n.handle, "nvmlDeviceGetHandleByIndex_v2"),
      symbol(n.by_uuid, "nvmlDeviceGetHandleByUUID"),
      symbol(n.name, "nvmlDeviceGetName"),
      symbol(n.uuid, "nvmlDeviceGetUUID"),
      symbol(n.clock, "nvmlDeviceGetClockInfo"),
      symbol(n.max_clock, "nvmlDeviceGetMaxClockInfo"),
      symbol(n.temperature, "nvmlDeviceGetTemperature"),
      symbol(n.reasons, "nvmlDeviceGetCurrentClocksEventReasons"),
      symbol(n.energy_mj, "nvmlDeviceGetTotalEnergyConsumption"),
      symbol(n.power_mw, "nvmlDeviceGetPowerUsage"),
      symbol(n.memory_clocks, "nvmlDeviceGetSupportedMemoryClocks"),
      symbol(n.graphics_clocks, "nvmlDeviceGetSupportedGraphicsClocks"),
      symbol(n.lock_gpu_clocks, "nvmlDeviceSetGpuLockedClocks"),
      symbol(n.reset_gpu_clocks, "nvmlDeviceResetGpuLockedClocks"),
      symbol(n.lock_memory_clocks, "nvmlDeviceSetMemoryLockedClocks"),
      symbol(n.reset_memory_clocks, "nvmlDeviceResetMemoryLockedClocks"),
      symbol(n.error_string, "nvmlErrorString"),
  };
  for (const Symbol& s : symbols) *s.slot = dlsym(lib, s.name);
  // Older drivers know the clocks event reasons by their former name.
  if (!n.reasons)
    n.reasons = reinterpret_cast<decltype(n.reasons)>(
        dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
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
