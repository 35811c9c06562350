// cuda_check.cuh — every CUDA call and every launch is checked; failures name the call.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "dpgpu/error.hpp"

namespace dpgpu::gpu {

[[noreturn]] inline void cuda_fail(cudaError_t e, const char* what, const char* file, int line) {
  std::string msg = std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  if (e == cudaErrorMemoryAllocation) throw dpgpu::OutOfMemory(msg);
  throw std::runtime_error(msg);
}

}  // namespace dpgpu::gpu

#define CUDA_CHECK(call)                                                           \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) ::dpgpu::gpu::cuda_fail(e_, #call, __FILE__, __LINE__); \
  } while (0)

// After a <<<...>>> launch: catches bad configurations at once (not asynchronous faults).
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
