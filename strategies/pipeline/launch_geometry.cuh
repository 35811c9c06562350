// launch_geometry.cuh — how the persistent pipeline kernels are laid out and launched, shared
// by the S-DP and knapsack drivers.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "cuda_check.cuh"
#include "pipeline_config.hpp"

namespace dpgpu::pipeline {

struct Persistent {
  int blocks = 1, threads = 32, per = 1;  // per: work items (element-stages) a thread carries
};

inline int sm_count() {
  int dev = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms;
}

// sync block: one block of p·k threads (rounded up to a warp). sync grid: `blocks` blocks of
// `block` threads (auto: one per SM, fewer when p·k needs fewer), each thread carrying up to
// kMaxPerThread work items; more blocks when that is not enough. `resident` says how many
// blocks of the kernel fit at once (for the cooperative launch).
inline Persistent persistent_geometry(std::int64_t pk, const PipelineConfig& cfg, int resident, const char* solver) {
  Persistent g;
  if (cfg.sync == "block") {
    g.threads = int((pk + 31) / 32 * 32);
    return g;
  }
  g.threads = cfg.block;
  const std::int64_t needed = (pk + cfg.block - 1) / cfg.block;
  std::int64_t blocks = cfg.blocks > 0 ? cfg.blocks : std::min<std::int64_t>(sm_count(), needed);
  blocks = std::max<std::int64_t>(1, std::min(blocks, needed));
  std::int64_t per = (pk + blocks * cfg.block - 1) / (blocks * cfg.block);
  if (per > kMaxPerThread) {
    blocks = (pk + std::int64_t(cfg.block) * kMaxPerThread - 1) / (std::int64_t(cfg.block) * kMaxPerThread);
    per = (pk + blocks * cfg.block - 1) / (blocks * cfg.block);
  }
  if (blocks > resident)
    throw InputError(std::string(solver) + ": sync grid needs " + std::to_string(blocks) + " blocks of " +
                     std::to_string(cfg.block) + " threads co-resident for p·k = " + std::to_string(pk) +
                     ", the GPU holds " + std::to_string(resident) + "; lower p or 'blocks'");
  g.blocks = int(blocks);
  g.per = int(per);
  return g;
}

// Calls f(std::integral_constant<int, Per>) with the smallest Per in {1, 2, 4, 8} >= per.
template <class F>
void with_per(int per, F&& f) {
  if (per <= 1) f(std::integral_constant<int, 1>{});
  else if (per <= 2) f(std::integral_constant<int, 2>{});
  else if (per <= 4) f(std::integral_constant<int, 4>{});
  else f(std::integral_constant<int, 8>{});
}

// Blocks of `kernel` that fit on the GPU at once with this block size and shared memory.
inline int resident_blocks(const void* kernel, int threads, std::size_t smem) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return per_sm * sm_count();
}

// Launches one persistent kernel: cooperative for sync grid, plain (one block) for sync block.
inline void launch_persistent(const void* kernel, bool grid, const Persistent& g, void** args, std::size_t smem,
                              cudaStream_t stream) {
  if (grid)
    CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(unsigned(g.blocks)), dim3(unsigned(g.threads)), args, smem, stream));
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
