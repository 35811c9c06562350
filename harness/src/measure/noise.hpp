// noise.hpp — a case's noise verdict: is its median steady enough to compare?
//
// The rule (the same as plots/dpgpu_plots/noise.py, which the figures, `dpgpu report` and
// `dpgpu compare` use): a case is noisy when the relative standard deviation of its run
// times exceeds the threshold — the experiment's max_noise when it sets one, else 5 %.
// Fewer than two repetitions: no verdict. The relative spread (max - min) / median is
// reported beside it, as hyperfine and NVBench print theirs.
#pragma once
#include <string>

namespace dpgpu {

inline constexpr double kDefaultNoiseThreshold = 0.05;

struct NoiseVerdict {
  bool measured = false;  // at least two repetitions and a finite rsd
  bool noisy = false;
  double rsd = 0;     // relative standard deviation (fraction)
  double spread = 0;  // (max - min) / median (fraction)
};

// threshold <= 0 means the default (5 %).
NoiseVerdict noise_verdict(double rsd, double min_s, double max_s, double median_s, int reps,
                           double threshold = kDefaultNoiseThreshold);

// For the progress line: "" when steady or unmeasured, else
// "noisy: rsd 12.3% > 5%, spread 0.01-0.20 s".
std::string noise_note(const NoiseVerdict& v, double min_s, double max_s,
                       double threshold = kDefaultNoiseThreshold);

}  // namespace dpgpu
