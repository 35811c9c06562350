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
  std::string name;                       // the case id
  MeasureSettings measure;                // the CaseSpec's, unchanged
  std::optional<ProfileRequest> profile;  // one extra, untimed solve under CUPTI (GPU solvers)
  bool verbose = false;
};

CaseResult measure_case(const CaseJob& job);

// Bytes of memory available now (host: MemAvailable; device: cudaMemGetInfo free bytes).
std::uint64_t host_bytes_available();

// Why the job cannot fit (bytes needed and available), or empty. Checks device memory only
// when called in the process that will run the GPU solver.
std::string memory_refusal(const CaseJob& job, bool check_device);

}  // namespace dpgpu
