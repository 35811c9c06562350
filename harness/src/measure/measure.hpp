// measure.hpp — runs one case in this process: warm-up solves, then counted repetitions
// (CUDA events for GPU solvers, the steady clock for CPU ones) until the stopping rule or
// timeout_s, each outcome rechecked by the problem's own check.
#pragma once
#include <optional>
#include <string>

#include "records/case_result.hpp"
#include "records/case_spec.hpp"
#include "dpgpu/registry.hpp"

namespace dpgpu {

struct CaseJob {
  const ProblemEntry* problem = nullptr;
  const SolverEntry* solver = nullptr;
  const AnyInstance* instance = nullptr;
  Params params;
  std::string name;  // the case id
  int repetitions = 5;      // at least
  int max_repetitions = 5;  // at most, while the noise is above max_noise
  std::optional<double> max_noise{};
  bool cold = false;        // flush the L2 cache before each GPU repetition
  bool series = false;      // one extra, untimed solve that records the solver's series
  std::optional<ProfileRequest> profile;  // one extra, untimed solve under CUPTI (GPU solvers)
  int warmup = 1;
  double timeout_s = 300;  // for warm-ups and repetitions together
  double energy_window_s = 1.0;  // extra solves until the energy window lasts this long
  bool verbose = false;
};

CaseResult measure_case(const CaseJob& job);

// Bytes of memory available now (host: MemAvailable; device: cudaMemGetInfo free bytes).
std::uint64_t host_bytes_available();

// Why the job cannot fit (bytes needed and available), or empty. Checks device memory only
// when called in the process that will run the GPU solver.
std::string memory_refusal(const CaseJob& job, bool check_device);

}  // namespace dpgpu
