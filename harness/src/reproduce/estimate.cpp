// estimate.cpp — a planned run's time from its reference run (estimate.hpp).
#include "reproduce/estimate.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "device/host_info.hpp"
#include "dpgpu/text_file.hpp"
#include "records/csv_table.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

std::optional<double> number(const CsvRow& row, const std::string& key) {
  auto it = row.find(key);
  if (it == row.end() || it->second.empty()) return std::nullopt;
  try {
    return std::stod(it->second);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

struct Timed {
  double median_s = 0, reps = 1;
};

struct Reference {
  std::map<std::string, Timed> cases;  // by case id
  double mean_case_s = 0;              // its solves' time over its cases
  std::set<std::string> not_run;       // skipped or refused in the reference run
};

// What a case costs beyond its solves: a worker process and, for a GPU case, its CUDA
// context, the idle-power reading and the checks. Fitted (least squares, per case) on the
// first H200 reproduction's 25 experiments (results/reproductions/h200_quick: each folder's
// context.json wall time against its summary.csv solves); the wall time a reference run
// recorded is no guide, since a resumed or merged run's says nothing of its cases.
constexpr double kGpuCaseS = 0.63, kCpuCaseS = 0.05;

Reference read_reference(const fs::path& dir, double warmup) {
  Reference ref;
  if (dir.empty() || !fs::exists(dir / "summary.csv")) return ref;
  double measured = 0;
  for (const CsvRow& row : CsvTable(dir / "summary.csv", {}).load()) {
    if (row.count("case_id") == 0) continue;
    const auto median = number(row, "time_median_s");
    if (!median) {  // skipped or refused there: nothing to run here either
      ref.not_run.insert(row.at("case_id"));
      continue;
    }
    const Timed t{*median, number(row, "reps").value_or(1)};
    ref.cases[row.at("case_id")] = t;
    measured += t.median_s * (t.reps + warmup);
  }
  if (!ref.cases.empty()) ref.mean_case_s = measured / double(ref.cases.size());
  return ref;
}

}  // namespace

RunEstimate estimate_run(const RunPlan& plan, const fs::path& reference_dir, double fallback_s) {
  const Reference ref = read_reference(reference_dir, double(plan.shared().warmup));
  const std::string no_gpu = gpu_unavailable_reason();
  RunEstimate est;
  double priced_sum = 0;
  std::size_t priced = 0;
  for (std::size_t i : plan.selected) {
    const CaseSpec& c = plan.cases[i];
    auto it = ref.cases.find(c.id);
    // A GPU case skipped here for want of a GPU runs on the machine the estimate is for.
    const bool gpu_here = c.decision == Decision::Skip && c.backend == Backend::Gpu &&
                          !no_gpu.empty() && c.reason.rfind(no_gpu, 0) == 0;
    if ((c.decision != Decision::Run && !gpu_here) || ref.not_run.count(c.id)) continue;
    ++est.cases;
    if (it == ref.cases.end()) {
      ++est.unpriced;
      continue;
    }
    // The reference's repetitions (more where it was noisy), within this plan's bounds; a
    // GPU case's energy window repeats its solve until it lasts energy_window_s.
    const MeasureSettings& m = c.measure;
    const double reps =
        std::clamp(it->second.reps, double(m.repetitions), double(m.max_repetitions));
    const double solves = it->second.median_s * reps;
    const bool gpu = c.backend == Backend::Gpu;
    priced_sum += (gpu ? std::max(solves, m.energy_window_s) : solves) +
                  it->second.median_s * m.warmup + (gpu ? kGpuCaseS : kCpuCaseS);
    ++priced;
  }
  // Unpriced cases: the mean of the priced ones, else of the reference's (ids renamed since).
  const double mean = priced              ? priced_sum / double(priced)
                      : ref.cases.empty() ? fallback_s
                                          : ref.mean_case_s + kGpuCaseS;
  est.seconds = priced_sum + mean * double(est.unpriced);
  return est;
}

}  // namespace dpgpu
