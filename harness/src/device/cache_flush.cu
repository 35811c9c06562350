#include "device/cache_flush.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace dpgpu {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// 16,384 dependent integer multiply-adds: one 16-byte SASS instruction each, 256 KiB of
// straight-line code, more than an SM's instruction caches hold (Hopper: a small L0 per
// sub-partition, a shared L1.5 of tens of KiB). Runtime operands keep ptxas from folding
// the chain.
#define DPGPU_STEP x = x * a + b;
#define DPGPU_X4(s) s s s s
#define DPGPU_X16(s) DPGPU_X4(DPGPU_X4(s))
#define DPGPU_X16384(s) DPGPU_X16(DPGPU_X16(DPGPU_X16(DPGPU_X4(s))))
__global__ void evict_instruction_caches(unsigned a, unsigned b, unsigned* sink) {
  unsigned x = threadIdx.x;
  DPGPU_X16384(DPGPU_STEP)
  if (x == 0xdeadbeefu) *sink = x;  // never true in practice; keeps the chain alive
}
#undef DPGPU_STEP
#undef DPGPU_X4
#undef DPGPU_X16
#undef DPGPU_X16384

// Reads the whole buffer (twice the L2) with ordinary loads: its lines take the L2's place,
// and they are clean, so the profiled kernel's misses evict them without write-backs, as
// after ncu's invalidation. (A memset gave the same L2 misses on the H100 but leaves the
// lines dirty.)
__global__ void evict_l2(const uint4* buffer, std::size_t count, unsigned* sink) {
  uint4 acc{0, 0, 0, 0};
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = buffer[i];
    acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
  }
  if ((acc.x & acc.y & acc.z & acc.w) == 0xdeadbeefu) *sink = acc.x;  // keeps the loads alive
}

}  // namespace

CacheFlush::CacheFlush() {
  int device = 0, l2 = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "L2 size");
  check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device), "SM count");
  bytes_ = std::size_t(std::max(l2, 1 << 20)) * 2;
  check(cudaMalloc(&buffer_, bytes_), "allocating the L2 flush buffer");
  if (const cudaError_t e = cudaMemset(buffer_, 0, bytes_); e != cudaSuccess) {
    cudaFree(buffer_);  // the destructor of a half-built object does not run
    check(e, "clearing the L2 flush buffer");
  }
}

CacheFlush::~CacheFlush() {
  if (buffer_) cudaFree(buffer_);
}

void CacheFlush::run() {
  auto* sink = static_cast<unsigned*>(buffer_);
  evict_l2<<<sms_ * 4, 256, 0, nullptr>>>(static_cast<const uint4*>(buffer_),
                                          bytes_ / sizeof(uint4), sink);
  check(cudaGetLastError(), "flushing the L2 cache");
  // Four warps per block, one on each sub-partition's L0 cache; as many blocks as SMs, which
  // an idle GPU spreads one to an SM (the GPU test sees the stalls for instructions rise).
  evict_instruction_caches<<<sms_, 128, 0, nullptr>>>(3u, 7u, sink);
  check(cudaGetLastError(), "flushing the instruction caches");
}

void CacheFlush::overwrite_l2(void* stream) {
  auto s = static_cast<cudaStream_t>(stream);
  check(cudaMemsetAsync(buffer_, ++overwrites_ & 0xff, bytes_, s),
        "overwriting the L2 flush buffer");
  check(cudaStreamSynchronize(s), "overwriting the L2 flush buffer");
}

}  // namespace dpgpu
