// power_fit.hpp — value = a·x^k fitted to measured points by least squares on log value
// against log x (k free, or fixed and only a fitted), with the fit's largest relative error on
// the points it was fitted to. What a `power_fit:` claim (experiment/claims.hpp) evaluates.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace dpgpu {

struct PowerPoint {
  double x = 0, value = 0;
};

struct PowerFitResult {
  double a = 0, k = 0;
  double max_error = 0;       // max |value / (a·x^k) − 1| over the points
  std::size_t worst = 0;      // the point of that error
  double at(double x) const;  // a·x^k
};

// Needs positive x and values, and two distinct x (one when k is fixed); nullopt otherwise.
std::optional<PowerFitResult> fit_power(const std::vector<PowerPoint>& points,
                                        std::optional<double> fixed_k = std::nullopt);

}  // namespace dpgpu
