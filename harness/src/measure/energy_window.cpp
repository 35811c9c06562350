#include "measure/energy_window.hpp"

#include <thread>

#include "device/gpu_monitor.hpp"

namespace dpgpu {

namespace {

using Clock = std::chrono::steady_clock;

// The counter's next move (at most `limit` later): the window's edges sit on updates, so
// the ~100 ms between them is not an error of the reading. Over several cards the sum moves
// when any card's counter does, so each other card's edge may be off by up to one update.
std::optional<unsigned long long> next_energy_move(int cards, double limit_s = 0.25) {
  auto first = gpu_energy_mj(cards);
  if (!first) return std::nullopt;
  const auto until = Clock::now() + std::chrono::duration<double>(limit_s);
  for (;;) {
    auto now = gpu_energy_mj(cards);
    if (!now || *now != *first || Clock::now() > until) return now;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

}  // namespace

std::optional<double> idle_gpu_power_w(int cards) {
  const auto a = next_energy_move(cards);
  const auto t0 = Clock::now();
  const auto b = a ? next_energy_move(cards) : std::nullopt;
  const double span_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (a && b && *b > *a && span_s > 0.01) return double(*b - *a) / 1000.0 / span_s;
  return gpu_power_w(cards);
}

EnergyWindow::EnergyWindow(Backend backend, std::optional<double> idle_power_w, int cards)
    : backend_(backend), cards_(cards) {
  record_.idle_power_w = idle_power_w;
  record_.cards = backend_ == Backend::Gpu ? cards : 0;
  if (backend_ == Backend::Gpu) {
    start_mj_ = next_energy_move(cards_);
    sampler_ = std::make_unique<PowerSampler>();
    available_ = start_mj_ || gpu_power_w(cards_);
  } else {
    start_rapl_ = read_rapl();
    available_ = start_rapl_.has_value();
  }
  start_ = Clock::now();
}

double EnergyWindow::elapsed_s() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

EnergyRecord EnergyWindow::close(int solves, double solve_s) {
  EnergyRecord e = record_;
  e.solves = solves;
  e.solve_s = solve_s;
  if (backend_ == Backend::Gpu) {
    std::optional<unsigned long long> end_mj;
    if (start_mj_) end_mj = next_energy_move(cards_);
    e.window_s = elapsed_s();
    PowerTrace t = sampler_->stop();
    e.sm_min_mhz = t.sm_min_mhz, e.sm_max_mhz = t.sm_max_mhz;
    e.memory_min_mhz = t.memory_min_mhz, e.memory_max_mhz = t.memory_max_mhz;
    e.reasons = t.reasons, e.samples = t.samples;
    if (t.power.size() >= 2) e.sampled_joules = integrate_power(t.power);
    if (start_mj_ && end_mj && *end_mj >= *start_mj_) {
      e.method = "nvml_counter";
      e.joules = double(*end_mj - *start_mj_) / 1000.0;
    } else if (e.sampled_joules && cards_ > 1) {
      e.note = "no energy counter on these cards, and power is sampled on the first card only";
    } else if (e.sampled_joules) {
      e.method = "nvml_power_samples";
      e.joules = *e.sampled_joules;
      e.window_s = t.power.back().t_s - t.power.front().t_s;
      e.note = "no energy counter: power sampled every 10 ms and integrated";
    } else {
      e.note = "NVML reported neither an energy counter nor power for this GPU";
    }
  } else {
    e.window_s = elapsed_s();
    const auto end = start_rapl_ ? read_rapl() : std::nullopt;
    if (start_rapl_ && end) {
      e.method = "rapl";
      e.joules = rapl_joules(*start_rapl_, *end);
      e.note = "CPU packages (RAPL): the whole host's CPUs, every process";
    } else {
      e.note = "no readable RAPL counter under /sys/class/powercap";
    }
  }
  return e;
}

}  // namespace dpgpu
