// launch_geometry.cuh — how the persistent pipeline kernels are laid out and launched, shared
// by the S-DP and knapsack drivers.
#pragma once
#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <type_traits>

#include "cuda_check.cuh"
#include "pipeline_config.hpp"

namespace dpgpu::pipeline {

struct Persistent {
  int blocks = 1, threads = 32, per = 1;  // per: work items (element-stages) a thread carries
};

// The device's SM count, asked once per process (the planner's rules and every solve ask).
inline int sm_count() {
  static const int sms = [] {
    int dev = 0, n = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
    return n;
  }();
  return sms;
}

// sync block: one block of p·k threads (rounded up to a warp). sync grid: grid_layout
// (pipeline_config.hpp), refused when its blocks are not all co-resident (`resident`: how
// many blocks of the kernel fit at once, for the cooperative launch).
inline Persistent persistent_geometry(std::int64_t pk, const PipelineConfig& cfg, int resident,
                                      const char* solver) {
  Persistent g;
  if (cfg.sync == "block") {
    g.threads = int((pk + 31) / 32 * 32);
    return g;
  }
  const GridLayout layout = grid_layout(pk, cfg, sm_count());
  if (auto why = residency_refusal(layout, pk, cfg, resident))
    throw InputError(std::string(solver) + ": " + *why);
  g.threads = cfg.block;
  g.blocks = int(layout.blocks);
  g.per = int(layout.per);
  return g;
}

// Calls f(std::integral_constant<int, Per>) with the smallest Per in {1, 2, 4, 8} >= per.
template <class F>
void with_per(int per, F&& f) {
  if (per <= 1)
    f(std::integral_constant<int, 1>{});
  else if (per <= 2)
    f(std::integral_constant<int, 2>{});
  else if (per <= 4)
    f(std::integral_constant<int, 4>{});
  else
    f(std::integral_constant<int, 8>{});
}

// Blocks of `kernel` that fit on the GPU at once with this block size and shared memory.
inline int resident_blocks(const void* kernel, int threads, std::size_t smem) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return per_sm * sm_count();
}

// The co-residency rule of a sync grid run, for the planner (check_device): `p` resolved as
// the solve resolves it (0: the largest valid that fits), then its layout against what the
// GPU holds of `kernel` (the Per = 8 instance, which the largest folds use).
inline std::optional<std::string> grid_rule(const void* kernel, std::size_t smem,
                                            const PipelineConfig& cfg, std::int64_t max_p,
                                            std::int64_t k) {
  if (cfg.sync != "grid") return std::nullopt;
  const int resident = resident_blocks(kernel, cfg.block, smem);
  const std::int64_t cap = grid_fold_cap(resident, cfg.block, k);
  if (cfg.p == 0 && cap < 1)
    return "parameter 'block': sync grid cannot hold even p = 1 (k = " + std::to_string(k) +
           " element-stages) in " + std::to_string(resident) + " co-resident blocks of " +
           std::to_string(cfg.block) + " threads";
  const std::int64_t p =
      cfg.p > 0 ? cfg.p
                : std::max<std::int64_t>(1, std::min(std::max<std::int64_t>(1, max_p), cap));
  return residency_refusal(grid_layout(p * k, cfg, sm_count()), p * k, cfg, resident);
}

// Launches one persistent kernel: cooperative for sync grid, plain (one block) for sync block.
inline void launch_persistent(const void* kernel, bool grid, const Persistent& g, void** args,
                              std::size_t smem, cudaStream_t stream) {
  if (grid)
    CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(unsigned(g.blocks)),
                                           dim3(unsigned(g.threads)), args, smem, stream));
  else
    CUDA_CHECK(cudaLaunchKernel(kernel, dim3(1), dim3(unsigned(g.threads)), args, smem, stream));
}

// Step timing for the step_ns counter: events around the compute phase.
struct StepTimer {
  cudaEvent_t start = nullptr, stop = nullptr;
  explicit StepTimer(cudaStream_t s) : stream(s) {
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start, stream));
  }
  void finish() { CUDA_CHECK(cudaEventRecord(stop, stream)); }
  double ms() const {
    float v = 0;
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&v, start, stop));
    return v;
  }
  ~StepTimer() {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }
  cudaStream_t stream;
};

}  // namespace dpgpu::pipeline
