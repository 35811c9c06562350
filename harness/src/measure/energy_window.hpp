// energy_window.hpp — a case's energy, read around its timed repetitions: NVML's
// total-energy counter of the case's own GPU (integrated power samples where the card has
// no counter), or the CPU packages' RAPL counters for a CPU case. The counter moves only
// about every 100 ms, so the window starts and ends on a move of the counter, and the caller
// extends it with extra back-to-back solves until it lasts energy_window_s (measure.cpp).
#pragma once
#include <chrono>
#include <memory>
#include <optional>

#include "device/power_sampler.hpp"
#include "device/rapl.hpp"
#include "dpgpu/context.hpp"
#include "records/energy_record.hpp"

namespace dpgpu {

// The card's power now, from two moves of its energy counter (about 100 ms apart): what the
// card drew over that span. NVML's power reading would not do here: on an H100 it is a 1 s
// average, which still holds the previous case. nvmlDeviceGetPowerUsage where there is no
// counter; nullopt where neither answers. `cards` > 1: the cards of a case over several GPUs,
// summed (gpu_monitor.hpp).
std::optional<double> idle_gpu_power_w(int cards = 1);

class EnergyWindow {
 public:
  // Opens the window now (GPU: on the counter's next move). `idle_power_w`: the card's power
  // before the case's warm-up. `cards`: the GPUs the case runs on (cards_in_use), whose
  // counters are summed; the clocks and throttle reasons are the first card's.
  EnergyWindow(Backend backend, std::optional<double> idle_power_w, int cards = 1);
  double elapsed_s() const;
  // False where nothing can measure this case's energy (then no extra solves are worth it).
  bool available() const { return available_; }
  // Closes it: `solves` solves ran in it, `solve_s` seconds of them inside the solver.
  EnergyRecord close(int solves, double solve_s);

 private:
  Backend backend_;
  int cards_ = 1;
  EnergyRecord record_;
  std::optional<unsigned long long> start_mj_;
  std::optional<RaplReading> start_rapl_;
  std::unique_ptr<PowerSampler> sampler_;
  std::chrono::steady_clock::time_point start_;
  bool available_ = false;
};

}  // namespace dpgpu
