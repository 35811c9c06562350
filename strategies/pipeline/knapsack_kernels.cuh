// knapsack_kernels.cuh — the 0-1 knapsack as an S-DP table (paper section 4.3): the
// (rows + 1) × W table (W = C + 1) laid out row by row, ST[r·W + c]; row 0 is zero (the
// "initial values", a0 = W of them). Element e = r·W + c has two stages:
//   stage 0 (offset W + w_r):  acc = c >= w_r ? ST[e − W − w_r] + v_r : 0     (take item r)
//   stage 1 (offset W):        ST[e] = max(acc, ST[e − W])                    (leave it)
// The offset of stage 0 depends on the row, which is why the paper calls the mapping "not
// strictly" S-DP; the p-fold schedule and its correctness condition apply row by row.
// Kernels mirror sdp_pipeline_persistent / sdp_pipeline_step with k = 2 (pipeline_schedule.cuh).
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "pipeline_schedule.cuh"

namespace dpgpu::pipeline {

namespace cg = cooperative_groups;
using ll = long long;

template <class T>
__device__ __forceinline__ T take_term(const T* st, ll e, ll W, const int* weights,
                                       const T* values) {
  const ll r = e / W, c = e - r * W;
  const ll w = __ldg(weights + r - 1);
  return c >= w ? __ldcg(st + e - W - w) + __ldg(values + r - 1) : T(0);
}

template <class T, bool Grid, int Per>
__global__ void __launch_bounds__(1024)
    knapsack_pipeline_persistent(T* st, const int* weights, const T* values, ll W, ll total, ll p,
                                 ll s_begin, ll s_end) {
  constexpr int k = 2;
  const ll a0 = W;
  const ll nthreads = ll(gridDim.x) * blockDim.x;
  const ll tid = ll(blockIdx.x) * blockDim.x + threadIdx.x;
  T acc[Per];
  int stage[Per];
  ll elem[Per];
#pragma unroll
  for (int q = 0; q < Per; ++q) {
    schedule_item(tid + q * nthreads, p, k, a0, s_begin, stage[q], elem[q]);
    acc[q] = stage[q] > 0 && elem[q] >= a0 && elem[q] < total ? __ldcg(st + elem[q])
                                                              : T(0);  // parked partial
  }
  for (ll s = s_begin; s < s_end; ++s) {
#pragma unroll
    for (int q = 0; q < Per; ++q) {
      const ll e = elem[q];
      if (e >= a0 && e < total) {
        if (stage[q] == 0) {
          acc[q] = take_term(st, e, W, weights, values);
        } else {
          const T keep = __ldcg(st + e - W);
          st[e] = acc[q] > keep ? acc[q] : keep;
        }
      }
      advance_item(p, k, stage[q], elem[q]);
    }
    if constexpr (Grid)
      cg::this_grid().sync();
    else
      __syncthreads();
  }
#pragma unroll
  for (int q = 0; q < Per; ++q)
    if (stage[q] > 0 && elem[q] >= a0 && elem[q] < total) st[elem[q]] = acc[q];
}

template <class T>
__global__ void knapsack_pipeline_step(T* st, const int* weights, const T* values, ll W, ll total,
                                       ll p, ll head) {
  const ll j = ll(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= 2 * p) return;
  const ll e = head - j;
  if (e < W || e >= total) return;
  if (j < p) {
    st[e] = take_term(st, e, W, weights, values);
  } else {
    const T keep = __ldcg(st + e - W), a = __ldcg(st + e);
    st[e] = a > keep ? a : keep;
  }
}

// One thread walks the table back from ST[rows·W + C]: item of row r was taken when its row
// differs from the row above at the current capacity.
template <class T>
__global__ void knapsack_trace(const T* st, const int* weights, ll W, ll rows, ll C,
                               unsigned char* taken) {
  ll c = C;
  for (ll r = rows; r >= 1; --r) {
    const bool take = st[r * W + c] != st[(r - 1) * W + c];
    taken[r - 1] = take;
    if (take) c -= weights[r - 1];
  }
}

}  // namespace dpgpu::pipeline
