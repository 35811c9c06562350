// nvml_library.hpp — the NVML entry points dpgpu uses, resolved at run time from
// libnvidia-ml.so.1 (machines without a driver still run: `ok` is false there). One object
// per process; every field may be null on an old driver, so callers check what they call.
#pragma once
#include <string>

namespace dpgpu {

struct NvmlLibrary {
  using Device = void*;
  int (*count)(unsigned*) = nullptr;
  int (*handle)(unsigned, Device*) = nullptr;
  int (*by_uuid)(const char*, Device*) = nullptr;
  int (*name)(Device, char*, unsigned) = nullptr;
  int (*uuid)(Device, char*, unsigned) = nullptr;
  int (*clock)(Device, int, unsigned*) = nullptr;      // nvmlDeviceGetClockInfo
  int (*max_clock)(Device, int, unsigned*) = nullptr;  // nvmlDeviceGetMaxClockInfo
  int (*temperature)(Device, int, unsigned*) = nullptr;
  int (*reasons)(Device, unsigned long long*) = nullptr;    // clocks event (throttle) reasons
  int (*energy_mj)(Device, unsigned long long*) = nullptr;  // total energy since driver load
  int (*power_mw)(Device, unsigned*) = nullptr;
  int (*memory_clocks)(Device, unsigned*, unsigned*) = nullptr;              // supported, MHz
  int (*graphics_clocks)(Device, unsigned, unsigned*, unsigned*) = nullptr;  // per memory clock
  int (*lock_gpu_clocks)(Device, unsigned, unsigned) = nullptr;
  int (*reset_gpu_clocks)(Device) = nullptr;
  int (*lock_memory_clocks)(Device, unsigned, unsigned) = nullptr;
  int (*reset_memory_clocks)(Device) = nullptr;
  const char* (*error_string)(int) = nullptr;
  bool ok = false;  // loaded and initialised

  // NVML's words for a return code ("Insufficient Permissions").
  std::string error(int code) const;
  // The card with this UUID ("GPU-..."); false when there is none.
  bool device(const std::string& uuid, Device* out) const;
};

// The process's NVML, loaded and initialised on first use.
const NvmlLibrary& nvml_library();

// nvmlReturn_t values and constants dpgpu names.
constexpr int kNvmlSuccess = 0, kNvmlNotSupported = 3, kNvmlNoPermission = 4;
constexpr int kNvmlClockGraphics = 0, kNvmlClockSm = 1, kNvmlClockMem = 2;
constexpr unsigned kNvmlClockLimitTdp =
    0xffffff01u;  // nvmlDeviceSetGpuLockedClocks: the base (TDP) clock

}  // namespace dpgpu
