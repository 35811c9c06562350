// human_format.hpp — numbers as a reader wants them on the console: times as "10.04 s",
// "523 ms", "12.3 µs", "85 ns" (four significant digits at most, never 1.004e+04 ms), counts
// as "16.8 M". The same rules as plots/dpgpu_plots/fmt.py (seconds, rate); keep them in step.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace dpgpu {

inline std::string format_seconds(double s) {
  if (!std::isfinite(s)) return "-";
  if (std::fabs(s) >= 999.95) return fmt::format("{:.0f} s", s);
  // Rounded to four significant digits first, so 0.99996 s is "1 s", not "1000 ms".
  const double r = std::strtod(fmt::format("{:.4g}", s).c_str(), nullptr);
  const double m = std::fabs(r);
  if (m >= 1.0 || m == 0.0) return fmt::format("{:.4g} s", r);
  if (m >= 1e-3) return fmt::format("{:.4g} ms", r * 1e3);
  if (m >= 1e-6) return fmt::format("{:.4g} \u00b5s", r * 1e6);
  if (m >= 1e-9) return fmt::format("{:.4g} ns", r * 1e9);
  return fmt::format("{:.2f} ns", r * 1e9);  // below a nanosecond: no exponent either
}

// A count (work units, bytes) with an SI prefix and three significant digits: "16.8 M".
inline std::string format_count(double v) {
  if (!std::isfinite(v)) return "-";
  v = std::strtod(fmt::format("{:.3g}", v).c_str(), nullptr);  // 999.6 k is "1 M"
  struct Prefix {
    const char* name;
    double scale;
  };
  static constexpr Prefix prefixes[] = {{"E", 1e18}, {"P", 1e15}, {"T", 1e12},
                                        {"G", 1e9},  {"M", 1e6},  {"k", 1e3}};
  for (const Prefix& p : prefixes)
    if (std::fabs(v) >= p.scale && std::fabs(v) < 1000 * p.scale)
      return fmt::format("{:.3g} {}", v / p.scale, p.name);
  return fmt::format("{:.3g}", v);  // below 1000 (or beyond exa: an exponent says it best)
}

// Bytes in binary units, three significant digits: "512 B", "1.5 KiB", "16 GiB". UINT64_MAX is
// what an estimate saturates at: "more than 16 EiB (the estimate overflows)", never 20 digits.
inline std::string format_bytes(std::uint64_t bytes) {
  if (bytes == UINT64_MAX) return "more than 16 EiB (the estimate overflows)";
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  std::size_t u = 0;
  while (v >= 1023.5 && u + 1 < std::size(units)) v /= 1024, ++u;
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.3g} {}", v, units[u]);
}

}  // namespace dpgpu
