// myers_thread_kernel.cuh — short pairs of a batch, one pair per thread: its W words of Pv/Mv
// in registers, its match masks in shared memory ([symbol][word] with the block's threads
// interleaved, so a warp's loads fall in distinct banks), the steps over b in a plain loop
// with the delta passed from word to word in a register. No lane waits for another, so a
// warp does 32 pairs at once where the stripe kernel (myers_kernel.cuh) would leave most of
// its lanes without words; W is the smallest of 1, 2, 4, 8, 16 that holds the pair's a.
#pragma once
#include <cstdint>

#include "myers_step.hpp"

namespace dpgpu::myers::thread_kernel {

using u64 = std::uint64_t;

struct PairJob {
  std::int64_t x_off, y_off;
  std::int32_t x_len, y_len;  // 1 <= x_len <= 64 W
  std::int64_t index;         // where its distance goes
};

#if DPGPU_MYERS_CPU_EMULATION
inline int popcount_thread(u64 v) { return __builtin_popcountll(v); }
#else
__device__ __forceinline__ int popcount_thread(u64 v) { return __popcll(v); }
#endif

// One pair: masks at peq[(c·W + j)·stride], then the steps; returns the distance.
template <int W>
__device__ long long one_pair(const PairJob& p, const std::uint8_t* __restrict__ x,
                              const std::uint8_t* __restrict__ y, int sigma, u64* peq, int stride) {
  for (int c = 0; c < sigma; ++c)
#pragma unroll
    for (int j = 0; j < W; ++j) peq[(c * W + j) * stride] = 0;
  for (int i = 0; i < p.x_len; ++i) {
    const int c = x[p.x_off + i];
    if (c < sigma) peq[(c * W + (i >> 6)) * stride] |= u64(1) << (i & 63);
  }
  u64 pv[W], mv[W];
#pragma unroll
  for (int j = 0; j < W; ++j) pv[j] = ~u64(0), mv[j] = 0;
  const std::uint8_t* yr = y + p.y_off;
  for (int r = 0; r < p.y_len; ++r) {
    const u64* eq = peq + yr[r] * W * stride;
    int h = 1;  // the top boundary
#pragma unroll
    for (int j = 0; j < W; ++j) h = block_step(pv[j], mv[j], eq[j * stride], h);
  }
  long long d = p.y_len;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const int bits = p.x_len - 64 * j;
    if (bits <= 0) break;
    const u64 valid = bits >= 64 ? ~u64(0) : (u64(1) << bits) - 1;
    d += popcount_thread(pv[j] & valid) - popcount_thread(mv[j] & valid);
  }
  return d;
}

#if !DPGPU_MYERS_CPU_EMULATION
// Grid-stride over the jobs; shared memory: sigma · W · blockDim words.
template <int W>
__global__ void per_thread(const PairJob* __restrict__ jobs, int njobs,
                           const std::uint8_t* __restrict__ x, const std::uint8_t* __restrict__ y,
                           int sigma, long long* dist) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  u64* peq = reinterpret_cast<u64*>(smem_bytes) + threadIdx.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < njobs; k += gridDim.x * blockDim.x) {
    const PairJob p = jobs[k];
    dist[p.index] = one_pair<W>(p, x, y, sigma, peq, blockDim.x);
  }
}
#endif

}  // namespace dpgpu::myers::thread_kernel
