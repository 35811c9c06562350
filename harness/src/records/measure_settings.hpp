// measure_settings.hpp — how a case is measured: set once by the plan from the experiment
// file (and --repetitions), then carried unchanged in the CaseSpec, across the worker
// boundary, into measure_case's CaseJob. --resume finds them unchanged (plan.json's
// fingerprint) or refuses.
#pragma once
#include <optional>

namespace dpgpu {

struct MeasureSettings {
  int repetitions = 5;              // counted solves, at least
  int warmup = 1;                   // untimed solves before them
  int max_repetitions = 5;          // at most, while the noise is above max_noise (>= repetitions)
  std::optional<double> max_noise;  // the stopping rule's rsd; none: exactly `repetitions`
  bool cold = false;                // flush the L2 cache before each GPU repetition
  bool series = false;              // one extra, untimed solve that records the solver's series
  double timeout_s = 300;           // for warm-ups and repetitions together
  double energy_window_s = 1.0;     // extra solves until the energy window lasts this long
};

}  // namespace dpgpu
