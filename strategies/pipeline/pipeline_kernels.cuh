// pipeline_kernels.cuh — the S-DP kernels of the pipeline strategy (README.md has the design).
//
// Every read of the table goes through __ldcg (L2, not L1): elements are written during the
// kernel by other blocks, and L1 is not coherent across SMs. Values are `unsigned` (32-bit
// cells) or `unsigned long long` (64-bit cells).
//
// sdp_pipeline_persistent — the p-fold pipeline (Figure 6) as one persistent kernel, one
//   barrier per step (__syncthreads for sync block, a cooperative grid barrier for sync grid).
//   Work item w < p·k is (group r = w / p, lane l = w % p). Figure 6's thread j works at step s
//   on element i_s − j at stage floor(j/p); the elements of stage t at step s form block
//   b = s − t (elements a0 + b·p .. a0 + b·p + p − 1). Group r takes the blocks b ≡ r (mod k)
//   and follows each through its k stages in k consecutive steps, so stage t of element e is
//   done at the same step as in Figure 6 and reads the same ST[e − a_t]; the partial value stays
//   in a register instead of going through ST[e] between stages, and ST[e] is written once, at
//   stage k − 1. A launch covers steps [s_begin, s_end); partials are parked in ST[e] at its end
//   and reloaded at the next launch's start (nobody reads an unfinished element).
// sdp_pipeline_step — one step of Figure 6 as written (sync launch): thread j, stage t = j / p,
//   element e = i − j, partial in ST[e].
// sdp_2x2_steps — the 2-by-2 pipeline: thread q applies stages 2q and 2q+1 to element i − q.
// sdp_prefix_elements — one block, a tournament over the k terms of each element.
// sdp_inner_parallel_elements — one block of k threads combining into ST[i] with atomics.
// table_checksum — wrap-around uint64 sum of the table.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "pipeline_schedule.cuh"
#include "sdp/sdp.hpp"

namespace dpgpu::pipeline {

namespace cg = cooperative_groups;
using ll = long long;

template <sdp::Op O, class T>
__device__ __forceinline__ T combine(T a, T b, T m) {
  if constexpr (O == sdp::Op::max) {
    return a > b ? a : b;
  } else if constexpr (O == sdp::Op::min) {
    return a < b ? a : b;
  } else {
    const T s = a + b;
    return s >= m ? s - m : s;
  }
}

template <class T>
__device__ __forceinline__ T load(const T* p) {
  return __ldcg(p);
}

// Offsets to shared memory (dynamic, k + 1 long longs: a zero pad after a(k-1), because the
// compiler may fetch a[2q] and a[2q+1] as one 16-byte load in sdp_2x2_steps even when only
// a[2q] is used; offset_smem_bytes(k) is what to allocate).
__host__ __device__ constexpr std::size_t offset_smem_bytes(int k) {
  return std::size_t(k + 1) * sizeof(ll);
}
__device__ __forceinline__ void stage_offsets(ll* sh, const ll* offsets, int k) {
  for (int t = threadIdx.x; t <= k; t += blockDim.x) sh[t] = t < k ? offsets[t] : 0;
  __syncthreads();
}

template <class T, sdp::Op O, bool Grid, int Per>
__global__ void __launch_bounds__(1024)
    sdp_pipeline_persistent(T* st, const ll* offsets, int k, ll n, ll a0, ll p, ll s_begin,
                            ll s_end, T mod) {
  extern __shared__ ll a[];
  stage_offsets(a, offsets, k);
  const ll nthreads = ll(gridDim.x) * blockDim.x;
  const ll tid = ll(blockIdx.x) * blockDim.x + threadIdx.x;
  T acc[Per];
  int stage[Per];
  ll elem[Per];
#pragma unroll
  for (int q = 0; q < Per; ++q) {
    schedule_item(tid + q * nthreads, p, k, a0, s_begin, stage[q], elem[q]);
    acc[q] =
        stage[q] > 0 && elem[q] >= a0 && elem[q] < n ? load(st + elem[q]) : T(0);  // parked partial
  }
  for (ll s = s_begin; s < s_end; ++s) {
#pragma unroll
    for (int q = 0; q < Per; ++q) {
      const ll e = elem[q];
      const int t = stage[q];
      if (e >= a0 && e < n) {
        const T x = load(st + e - a[t]);
        acc[q] = t == 0 ? x : combine<O>(acc[q], x, mod);
        if (t == k - 1) st[e] = acc[q];
      }
      advance_item(p, k, stage[q], elem[q]);
    }
    if constexpr (Grid)
      cg::this_grid().sync();
    else
      __syncthreads();
  }
#pragma unroll
  for (int q = 0; q < Per; ++q) {  // park partials for the next launch
    const ll e = elem[q];
    if (stage[q] > 0 && e >= a0 && e < n) st[e] = acc[q];
  }
}

template <class T, sdp::Op O>
__global__ void sdp_pipeline_step(T* st, const ll* offsets, int k, ll n, ll a0, ll p, ll head,
                                  T mod) {
  const ll j = ll(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= p * k) return;
  const ll e = head - j;
  if (e < a0 || e >= n) return;
  const int t = int(j / p);
  const T x = load(st + e - offsets[t]);
  st[e] = t == 0 ? x : combine<O>(load(st + e), x, mod);
}

template <class T, sdp::Op O>
__global__ void __launch_bounds__(1024)
    sdp_2x2_steps(T* st, const ll* offsets, int k, ll n, ll a0, ll s_begin, ll s_end, T mod) {
  extern __shared__ ll a[];
  stage_offsets(a, offsets, k);
  const int q = threadIdx.x;
  const int half = (k + 1) / 2;
  for (ll s = s_begin; s < s_end; ++s) {
    const ll e = a0 + s - q;
    if (q < half && e >= a0 && e < n) {
      T v = load(st + e - a[2 * q]);  // sub-step A: stage 2q
      if (q > 0) v = combine<O>(load(st + e), v, mod);
      if (2 * q + 1 < k) v = combine<O>(v, load(st + e - a[2 * q + 1]), mod);  // sub-step B
      st[e] = v;
    }
    __syncthreads();
  }
}

template <class T, sdp::Op O>
__global__ void __launch_bounds__(1024)
    sdp_prefix_elements(T* st, const ll* offsets, int k, ll i_begin, ll i_end, T mod) {
  extern __shared__ ll a[];
  stage_offsets(a, offsets, k);
  __shared__ T part[1024];
  const int j = threadIdx.x;
  for (ll i = i_begin; i < i_end; ++i) {
    if (j < k) part[j] = load(st + i - a[j]);
    __syncthreads();
    for (int h = blockDim.x / 2; h >= 1; h >>= 1) {  // tournament: log2(blockDim) rounds
      if (j < h && j + h < k) part[j] = combine<O>(part[j], part[j + h], mod);
      __syncthreads();
    }
    if (j == 0) st[i] = part[0];
    __syncthreads();
  }
}

template <sdp::Op O, class T>
__device__ void atomic_combine(T* addr, T x, T mod) {
  if constexpr (O == sdp::Op::max) {
    atomicMax(addr, x);
  } else if constexpr (O == sdp::Op::min) {
    atomicMin(addr, x);
  } else {  // add modulo: a compare-and-swap loop, serialized among the k threads
    T old = load(addr);
    while (true) {
      const T prev = atomicCAS(addr, old, combine<O>(old, x, mod));
      if (prev == old) break;
      old = prev;
    }
  }
}

template <class T, sdp::Op O>
__global__ void __launch_bounds__(1024)
    sdp_inner_parallel_elements(T* st, const ll* offsets, int k, ll i_begin, ll i_end, T mod) {
  extern __shared__ ll a[];
  stage_offsets(a, offsets, k);
  const int j = threadIdx.x;
  for (ll i = i_begin; i < i_end; ++i) {
    const T x = j < k ? load(st + i - a[j]) : T(0);
    if (j == 0) st[i] = x;  // the first term is an assignment (Figure 1)
    __syncthreads();
    if (j > 0 && j < k) atomic_combine<O>(st + i, x, mod);  // all k − 1 threads hit ST[i]
    __syncthreads();
  }
}

template <class T>
__global__ void table_checksum(const T* st, ll n, unsigned long long* sum) {
  unsigned long long s = 0;
  for (ll i = ll(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += ll(gridDim.x) * blockDim.x)
    s += (unsigned long long)st[i];
  for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, s);  // wraps modulo 2^64, as the checksum does
}

}  // namespace dpgpu::pipeline
