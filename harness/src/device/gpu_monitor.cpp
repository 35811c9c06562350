#include "device/gpu_monitor.hpp"

#include <fmt/format.h>

#include <utility>
#include <vector>

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>
#endif

#include "device/host_info.hpp"
#include "device/nvml_library.hpp"

namespace dpgpu {

namespace {

int current_cuda_device() {
  int device = 0;
#if DPGPU_WITH_CUDA
  cudaGetDevice(&device);
#endif
  return device;
}

// The card this process uses, found once. NVML numbers every card of the host; CUDA only
// those it may use, in its own order: the card is the one whose UUID the CUDA device has.
struct Card {
  NvmlLibrary::Device device = nullptr;
  std::string uuid, name;
  bool ok = false;
  Card() {
    const NvmlLibrary& n = nvml_library();
    if (!n.ok) return;
    uuid = cuda_device_uuid(current_cuda_device());
    ok = n.device(uuid, &device) || n.handle(0, &device) == kNvmlSuccess;
    char text[96] = {};
    if (ok && n.name && n.name(device, text, sizeof text) == kNvmlSuccess) name = text;
  }
};

const Card& card() {
  static const Card c;
  return c;
}

// Slowdowns, by nvmlClocksEventReasons bit.
const std::pair<unsigned long long, const char*> kSlowdowns[] = {{0x4, "sw_power_cap"},
                                                                 {0x8, "hw_slowdown"},
                                                                 {0x20, "sw_thermal"},
                                                                 {0x40, "hw_thermal"},
                                                                 {0x80, "hw_power_brake"}};

}  // namespace

std::optional<GpuSample> sample_gpu() {
  const Card& c = card();
  if (!c.ok) return std::nullopt;
  const NvmlLibrary& n = nvml_library();
  GpuSample s;
  s.name = c.name;
  s.uuid = c.uuid;
  n.clock(c.device, kNvmlClockSm, &s.sm_clock_mhz);
  n.clock(c.device, kNvmlClockMem, &s.memory_clock_mhz);
  n.temperature(c.device, 0, &s.temperature_c);
  if (n.power_mw) n.power_mw(c.device, &s.power_mw);
  if (n.reasons) n.reasons(c.device, &s.reasons);
  return s;
}

std::optional<unsigned long long> gpu_energy_mj() {
  const Card& c = card();
  unsigned long long mj = 0;
  if (!c.ok || !nvml_library().energy_mj || nvml_library().energy_mj(c.device, &mj) != kNvmlSuccess)
    return std::nullopt;
  return mj;
}

std::optional<double> gpu_power_w() {
  const Card& c = card();
  unsigned mw = 0;
  if (!c.ok || !nvml_library().power_mw || nvml_library().power_mw(c.device, &mw) != kNvmlSuccess)
    return std::nullopt;
  return mw / 1000.0;
}

std::string throttle_flags(unsigned long long reasons) {
  std::vector<std::string> what;
  for (auto [bit, name] : kSlowdowns)
    if (reasons & bit) what.emplace_back(name);
  return fmt::format("{}", fmt::join(what, "+"));
}

bool throttled(unsigned long long reasons) { return !throttle_flags(reasons).empty(); }

std::string throttle_warning(const GpuSample& a, const GpuSample& b) {
  std::vector<std::string> what;
  for (auto [bit, name] : kSlowdowns)
    if ((a.reasons | b.reasons) & bit) what.emplace_back(name);
  // A clock that fell by more than 10% while the GPU was busy at both ends.
  if (a.sm_clock_mhz > 0 && b.sm_clock_mhz * 10 < a.sm_clock_mhz * 9 && !(b.reasons & 0x1))
    what.push_back(fmt::format("SM clock {} -> {} MHz", a.sm_clock_mhz, b.sm_clock_mhz));
  return fmt::format("{}", fmt::join(what, "; "));
}

}  // namespace dpgpu
