// gpu_monitor.hpp — the GPU's clocks, temperature and clock-event (throttle) reasons, read
// through NVML (loaded at run time, so machines without a driver still run), at the start
// and end of each GPU case, for a warning column when the card throttled.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace dpgpu {

struct GpuSample {
  std::string name, uuid;  // which card: the CUDA device this process uses
  unsigned sm_clock_mhz = 0, memory_clock_mhz = 0, temperature_c = 0;
  unsigned long long reasons = 0;  // nvmlClocksEventReasons bits
};

// The CUDA device this process uses (found in NVML by its UUID, so CUDA_VISIBLE_DEVICES and
// device order are honoured); nullopt without NVML or a device.
std::optional<GpuSample> sample_gpu();

// Empty when neither sample shows power or thermal slowdown and the SM clock held; else a
// short text naming what happened ("sw_power_cap; SM clock 1980 -> 1620 MHz").
std::string throttle_warning(const GpuSample& start, const GpuSample& end);

}  // namespace dpgpu
