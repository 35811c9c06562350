// energy_record.hpp — a case's energy: what a counter (NVML's total energy for GPU cases,
// RAPL for CPU ones) or integrated power samples said over a window of back-to-back solves,
// the idle power before the case, and the clock range and throttle reasons during it.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace dpgpu {

struct EnergyRecord {
  // nvml_counter | nvml_power_samples (no counter: sampled power integrated) | rapl | n/a
  std::string method = "n/a";
  std::string note;     // n/a: why; else what the reader should know (empty: nothing)
  double joules = 0;    // over the window
  double window_s = 0;  // the window's wall time: the timed repetitions and extra solves
  double solve_s = 0;   // of which inside solves (the rest: checks, harness)
  int solves = 0;       // solves the window held
  int cards = 0;        // GPUs whose counters were summed (a case over several: `gpus`); 0: CPU
  std::optional<double> idle_power_w;    // before the case's warm-up (GPU cases)
  std::optional<double> sampled_joules;  // integrated power samples over the window (GPU)
  // GPU cases: sampled clocks while busy, and every throttle reason seen (nvml bits).
  unsigned sm_min_mhz = 0, sm_max_mhz = 0, memory_min_mhz = 0, memory_max_mhz = 0;
  unsigned long long reasons = 0;
  int samples = 0;

  bool measured() const { return method != "n/a" && solves > 0 && window_s > 0; }
  double joules_per_solve() const { return solves > 0 ? joules / solves : 0; }
  double power_w() const { return window_s > 0 ? joules / window_s : 0; }
};

nlohmann::json to_json(const EnergyRecord& e);
EnergyRecord energy_record_from_json(const nlohmann::json& j);

}  // namespace dpgpu
