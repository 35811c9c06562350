// estimate.hpp — what a planned run will take, from a committed reference run of the same
// experiment: each case to run costs its reference time_median_s × (repetitions + warm-up),
// a GPU case at least its energy window (energy_window_s) for the repetitions, plus a fixed
// cost per case (worker process, CUDA context, checks; fitted on the first H200
// reproduction, estimate.cpp). Cases match by id with the file's own seeds; a case the
// reference lacks is priced at the mean of those it has, else of the reference's (and counted
// as unpriced). A GPU case skipped here for want of a GPU counts: it runs where the estimate
// is for.
#pragma once
#include <cstddef>
#include <filesystem>

#include "plan/plan.hpp"

namespace dpgpu {

struct RunEstimate {
  double seconds = 0;
  std::size_t cases = 0;     // to run (skipped and refused cases cost nothing)
  std::size_t unpriced = 0;  // of them, absent from the reference
};

// `reference_dir`: a results folder (summary.csv, context.json); empty or absent: every
// case unpriced, at `fallback_s` each.
RunEstimate estimate_run(const RunPlan& plan, const std::filesystem::path& reference_dir,
                         double fallback_s = 1.0);

}  // namespace dpgpu
