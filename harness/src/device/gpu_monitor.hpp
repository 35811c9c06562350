// gpu_monitor.hpp — the GPU's clocks, temperature, power, energy counter and clock-event
// (throttle) reasons, read through NVML (nvml_library.hpp: loaded at run time, so machines
// without a driver still run) for the CUDA device this process uses.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpgpu {

struct GpuSample {
  std::string name, uuid;  // which card: the CUDA device this process uses
  unsigned sm_clock_mhz = 0, memory_clock_mhz = 0, temperature_c = 0;
  unsigned power_mw = 0;           // nvmlDeviceGetPowerUsage (0: not reported)
  unsigned long long reasons = 0;  // nvmlClocksEventReasons bits
};

// The CUDA device this process uses (found in NVML by its UUID, so CUDA_VISIBLE_DEVICES and
// device order are honoured); nullopt without NVML or a device.
std::optional<GpuSample> sample_gpu();

// The card's total-energy counter in millijoules (since the driver loaded; it moves about
// every 100 ms on an H100); nullopt where NVML or the card has none. `cards` > 1: a case
// whose solver spreads over several GPUs (`gpus`) puts logical GPU i on CUDA device
// i mod devices, so its energy is the sum of CUDA devices 0..cards-1's counters (nullopt
// where any of them has none).
std::optional<unsigned long long> gpu_energy_mj(int cards = 1);
// The card's power draw in watts now (`cards`: summed as above); nullopt where not reported.
std::optional<double> gpu_power_w(int cards = 1);
// The cards a case asking for `wanted` GPUs runs on here: at most the CUDA devices this
// process sees (logical GPUs beyond them share cards), at least 1.
int cards_in_use(int wanted);
// The sum of per-card readings; nullopt when there is none or any card gave none.
template <class T>
std::optional<T> sum_of_cards(const std::vector<std::optional<T>>& readings) {
  if (readings.empty()) return std::nullopt;
  T total{};
  for (const auto& r : readings) {
    if (!r) return std::nullopt;
    total += *r;
  }
  return total;
}

// The reasons NVML names a slowdown by (power cap, thermal, hardware slowdown, power brake),
// as flags joined by '+' ("sw_power_cap+sw_thermal"); empty when none is set. Idle and the
// applications-clocks setting (set while clocks are locked) are not slowdowns.
std::string throttle_flags(unsigned long long reasons);
bool throttled(unsigned long long reasons);

// Empty when neither sample shows power or thermal slowdown and the SM clock held; else a
// short text naming what happened ("sw_power_cap; SM clock 1980 -> 1620 MHz").
std::string throttle_warning(const GpuSample& start, const GpuSample& end);

}  // namespace dpgpu
