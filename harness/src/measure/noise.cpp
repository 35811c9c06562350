#include "measure/noise.hpp"

#include <fmt/format.h>

#include <cmath>

#include "records/human_format.hpp"

namespace dpgpu {

NoiseVerdict noise_verdict(double rsd, double min_s, double max_s, double median_s, int reps,
                           double threshold) {
  if (!(threshold > 0)) threshold = kDefaultNoiseThreshold;
  NoiseVerdict v;
  v.measured = reps >= 2 && std::isfinite(rsd);
  v.rsd = std::isfinite(rsd) ? rsd : 0;
  v.spread =
      median_s > 0 && std::isfinite(min_s) && std::isfinite(max_s) ? (max_s - min_s) / median_s : 0;
  v.noisy = v.measured && rsd > threshold;
  return v;
}

std::string noise_note(const NoiseVerdict& v, double min_s, double max_s, double threshold) {
  if (!(threshold > 0)) threshold = kDefaultNoiseThreshold;
  if (!v.noisy) return "";
  return fmt::format("noisy: rsd {:.1f}% > {:.0f}%, spread {} to {}", v.rsd * 100, threshold * 100,
                     format_seconds(min_s), format_seconds(max_s));
}

}  // namespace dpgpu
