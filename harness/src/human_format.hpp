// human_format.hpp — times as a reader wants them on the progress line: "10.04 s",
// "523 ms", "12.3 µs", "85 ns" (four significant digits at most, never 1.004e+04 ms).
// The same rule as plots/dpgpu_plots/fmt.py:seconds.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <string>

namespace dpgpu {

inline std::string format_seconds(double s) {
  if (!std::isfinite(s)) return "-";
  const double m = std::fabs(s);
  if (m >= 1000.0) return fmt::format("{:.0f} s", s);
  if (m >= 1.0 || m == 0.0) return fmt::format("{:.4g} s", s);
  if (m >= 1e-3) return fmt::format("{:.4g} ms", s * 1e3);
  if (m >= 1e-6) return fmt::format("{:.4g} \u00b5s", s * 1e6);
  return fmt::format("{:.4g} ns", s * 1e9);
}

}  // namespace dpgpu
