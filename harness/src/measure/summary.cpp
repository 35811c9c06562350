#include "measure/summary.hpp"

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

}  // namespace dpgpu
