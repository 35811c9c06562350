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

// A solve whose work the harness cannot time (a library call in a worker process, peers/)
// sets the counter "external_time_s" to the seconds it measured itself: they become the
// repetition's time, and the time measured here around the whole solve is kept as the
// counter "measured_s", so the row shows both. No such counter: nothing changes.
void apply_external_time(RepRecord& rec);

// Bytes of memory available now (host: MemAvailable; device: cudaMemGetInfo free bytes).
std::uint64_t host_bytes_available();

// Why the job cannot fit (bytes needed and available), or empty. Checks device memory only
// when called in the process that will run the GPU solver.
std::string memory_refusal(const CaseJob& job, bool check_device);

}  // namespace dpgpu
