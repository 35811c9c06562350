// power_sampler.hpp — a thread that reads the GPU's power draw, SM and memory clocks and
// throttle reasons every few milliseconds while a case runs: the clock range and throttle
// flags of the row, and the energy where the card has no energy counter (integrated power).
#pragma once
#include <atomic>
#include <thread>
#include <vector>

namespace dpgpu {

struct PowerPoint {
  double t_s = 0;  // since the sampler started
  double watts = 0;
};

// What the samples saw.
struct PowerTrace {
  std::vector<PowerPoint> power;  // only samples where NVML reported power
  // Clocks of the samples where the GPU was busy (of all samples when none was).
  unsigned sm_min_mhz = 0, sm_max_mhz = 0, memory_min_mhz = 0, memory_max_mhz = 0;
  unsigned long long reasons = 0;  // every reason seen, OR-ed
  int samples = 0;
};

// Joules under the samples (trapezoids), over [first, last] sample; 0 with fewer than two.
double integrate_power(const std::vector<PowerPoint>& points);
// The mean of the samples' power (0 without samples).
double mean_power(const std::vector<PowerPoint>& points);

// Samples the CUDA device this process uses, from construction to stop(). Without NVML it
// samples nothing (an empty trace).
class PowerSampler {
 public:
  explicit PowerSampler(double period_s = 0.01);
  ~PowerSampler();
  PowerTrace stop();  // joins the thread; the trace up to now

 private:
  void loop();
  double period_s_;
  std::atomic<bool> stop_{false};
  PowerTrace trace_;
  std::thread thread_;
};

}  // namespace dpgpu
