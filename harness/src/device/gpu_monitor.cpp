#include "device/gpu_monitor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
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

// A CUDA device's card in NVML, found once. NVML numbers every card of the host; CUDA only
// those it may use, in its own order: the card is the one whose UUID the CUDA device has.
struct Card {
  NvmlLibrary::Device device = nullptr;
  std::string uuid, name;
  bool ok = false;
  explicit Card(int cuda_device) {
    const NvmlLibrary& n = nvml_library();
    if (!n.ok) return;
    uuid = cuda_device_uuid(cuda_device);
    ok = n.device(uuid, &device) ||
         (cuda_device == current_cuda_device() && n.handle(0, &device) == kNvmlSuccess);
    char text[96] = {};
    if (ok && n.name && n.name(device, text, sizeof text) == kNvmlSuccess) name = text;
  }
};

// The card this process uses (its current CUDA device when first asked).
const Card& card() {
  static const Card c(current_cuda_device());
  return c;
}

// The card of CUDA device i (i < 8, the most logical GPUs a solver takes), found once each.
const Card& card_of(int i) {
  static std::mutex m;
  static std::map<int, std::unique_ptr<Card>> found;
  std::lock_guard<std::mutex> lock(m);
  auto& c = found[i];
  if (!c) c = std::make_unique<Card>(i);
  return *c;
}

// The cards of a case over `cards` GPUs: this process's own for one, CUDA devices 0..cards-1
// for several.
std::vector<const Card*> cards_of(int cards) {
  if (cards <= 1) return {&card()};
  std::vector<const Card*> all;
  for (int i = 0; i < cards; ++i) all.push_back(&card_of(i));
  return all;
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

std::optional<unsigned long long> gpu_energy_mj(int cards) {
  std::vector<std::optional<unsigned long long>> readings;
  for (const Card* c : cards_of(cards)) {
    unsigned long long mj = 0;
    const bool ok = c->ok && nvml_library().energy_mj &&
                    nvml_library().energy_mj(c->device, &mj) == kNvmlSuccess;
    readings.push_back(ok ? std::optional<unsigned long long>(mj) : std::nullopt);
  }
  return sum_of_cards(readings);
}

std::optional<double> gpu_power_w(int cards) {
  std::vector<std::optional<double>> readings;
  for (const Card* c : cards_of(cards)) {
    unsigned mw = 0;
    const bool ok =
        c->ok && nvml_library().power_mw && nvml_library().power_mw(c->device, &mw) == kNvmlSuccess;
    readings.push_back(ok ? std::optional<double>(mw / 1000.0) : std::nullopt);
  }
  return sum_of_cards(readings);
}

int cards_in_use(int wanted) {
  if (wanted <= 1) return 1;
  return std::max(1, std::min(wanted, cuda_device_count()));
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
