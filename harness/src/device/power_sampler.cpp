#include "device/power_sampler.hpp"

#include <algorithm>
#include <chrono>

#include "device/gpu_monitor.hpp"

namespace {
constexpr unsigned long long kGpuIdle = 0x1;  // nvmlClocksEventReasonGpuIdle
}

namespace dpgpu {

double integrate_power(const std::vector<PowerPoint>& p) {
  double joules = 0;
  for (std::size_t i = 1; i < p.size(); ++i)
    joules += 0.5 * (p[i].watts + p[i - 1].watts) * (p[i].t_s - p[i - 1].t_s);
  return joules;
}

double mean_power(const std::vector<PowerPoint>& p) {
  double sum = 0;
  for (auto& x : p) sum += x.watts;
  return p.empty() ? 0 : sum / double(p.size());
}

PowerSampler::PowerSampler(double period_s) : period_s_(period_s) {
  if (sample_gpu()) thread_ = std::thread([this] { loop(); });
}

PowerSampler::~PowerSampler() { stop(); }

PowerTrace PowerSampler::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  return trace_;
}

void PowerSampler::loop() {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PowerTrace idle;  // clocks of the samples where the GPU was idle: used only if all were
  auto widen = [](const GpuSample& s, PowerTrace& t) {
    const bool first = t.samples++ == 0;
    t.sm_min_mhz = first ? s.sm_clock_mhz : std::min(t.sm_min_mhz, s.sm_clock_mhz);
    t.sm_max_mhz = first ? s.sm_clock_mhz : std::max(t.sm_max_mhz, s.sm_clock_mhz);
    t.memory_min_mhz = first ? s.memory_clock_mhz : std::min(t.memory_min_mhz, s.memory_clock_mhz);
    t.memory_max_mhz = first ? s.memory_clock_mhz : std::max(t.memory_max_mhz, s.memory_clock_mhz);
  };
  // One sample at the start and one after stop() was asked, so the trace spans the window.
  for (bool last = false; !last;) {
    last = stop_.load();
    if (auto s = sample_gpu()) {
      widen(*s, (s->reasons & kGpuIdle) ? idle : trace_);
      trace_.reasons |= s->reasons;
      if (s->power_mw > 0)
        trace_.power.push_back(
            {std::chrono::duration<double>(Clock::now() - start).count(), s->power_mw / 1000.0});
    }
    if (!last) std::this_thread::sleep_for(std::chrono::duration<double>(period_s_));
  }
  const int busy = trace_.samples;
  if (busy == 0) {
    idle.power = std::move(trace_.power), idle.reasons = trace_.reasons;
    trace_ = std::move(idle);
  } else {
    trace_.samples = busy + idle.samples;
  }
}

}  // namespace dpgpu
