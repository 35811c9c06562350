// power_fit.cpp — log-log least squares (power_fit.hpp).
#include "verify/power_fit.hpp"

#include <cmath>

namespace dpgpu {

double PowerFitResult::at(double x) const { return a * std::pow(x, k); }

std::optional<PowerFitResult> fit_power(const std::vector<PowerPoint>& points,
                                        std::optional<double> fixed_k) {
  if (points.empty()) return std::nullopt;
  double sx = 0, sy = 0;
  for (const PowerPoint& p : points) {
    if (!(p.x > 0) || !(p.value > 0) || !std::isfinite(p.x) || !std::isfinite(p.value))
      return std::nullopt;
    sx += std::log(p.x), sy += std::log(p.value);
  }
  const double n = double(points.size()), mx = sx / n, my = sy / n;
  PowerFitResult f;
  if (fixed_k) {
    f.k = *fixed_k;
  } else {
    double sxx = 0, sxy = 0;
    for (const PowerPoint& p : points) {
      const double dx = std::log(p.x) - mx;
      sxx += dx * dx, sxy += dx * (std::log(p.value) - my);
    }
    if (!(sxx > 1e-24)) return std::nullopt;  // one distinct x: no slope
    f.k = sxy / sxx;
  }
  f.a = std::exp(my - f.k * mx);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double e = std::fabs(points[i].value / f.at(points[i].x) - 1);
    if (i == 0 || e > f.max_error) f.max_error = e, f.worst = i;
  }
  return f;
}

}  // namespace dpgpu
