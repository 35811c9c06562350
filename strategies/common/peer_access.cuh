// peer_access.cuh — enable_peer_access(from, to): card `from` may read card `to`'s memory
// directly (NVLink or PCIe), asked of the runtime once per pair per process. Every multi-GPU
// solver calls this one function, so a pair that one solver enabled is never enabled again
// by another (the runtime answers that with an error that compute-sanitizer reports).
#pragma once
#include <cuda_runtime.h>

#include <mutex>
#include <set>
#include <utility>

#include "cuda_check.cuh"

namespace dpgpu::gpu {

// Returns whether `from` can read `to` (false: the hardware has no path; copies between the
// two then go through the host). Leaves the current device as it found it.
inline bool enable_peer_access(int from, int to) {
  static std::mutex m;
  static std::set<std::pair<int, int>> enabled;
  if (from == to) return true;
  std::lock_guard<std::mutex> lock(m);
  if (enabled.count({from, to})) return true;
  int can = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can, from, to));
  if (!can) return false;
  int current = 0;
  CUDA_CHECK(cudaGetDevice(&current));
  CUDA_CHECK(cudaSetDevice(from));
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();  // enabled outside dpgpu
  CUDA_CHECK(cudaSetDevice(current));
  if (e != cudaErrorPeerAccessAlreadyEnabled) CUDA_CHECK(e);
  enabled.insert({from, to});
  return true;
}

}  // namespace dpgpu::gpu
