#include "measure/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dpgpu {

const std::vector<std::string>& run_columns() {
  static const std::vector<std::string> c{"experiment", "case_id", "problem",    "instance",
                                          "seed",       "solver",  "backend",    "rep",
                                          "status",     "valid",   "objective",  "known_optimum",
                                          "time_s",     "work",    "throughput", "message"};
  return c;
}

const std::vector<std::string>& summary_columns() {
  static const std::vector<std::string> c{"experiment",
                                          "case_id",
                                          "problem",
                                          "instance",
                                          "seed",
                                          "solver",
                                          "backend",
                                          "status",
                                          "valid",
                                          "objective",
                                          "known_optimum",
                                          "reps",
                                          "work",
                                          "time_median_s",
                                          "time_min_s",
                                          "time_max_s",
                                          "time_mean_s",
                                          "time_rsd",
                                          "time_noise",
                                          "throughput",
                                          "harness_overhead",
                                          "harness_case_overhead",
                                          "message"};
  return c;
}

std::string summary_number(double statistic, const std::vector<double>& values) {
  const bool whole = !values.empty() && std::all_of(values.begin(), values.end(), [](double v) {
    return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9007199254740992.0;
  });
  if (whole) return fmt::format("{}", statistic);  // shortest exact: 1490911664, 2.5
  return fmt::format("{:.6g}", statistic);
}

}  // namespace dpgpu
