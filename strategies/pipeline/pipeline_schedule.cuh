// pipeline_schedule.cuh — the work items of the persistent p-fold pipeline kernels (S-DP and
// knapsack), apart from what each stage computes. Work item w < p·k is (group r = w / p,
// lane l = w % p); at step s group r holds the block b ≡ r (mod k) that is in stage
// t = (s − r) mod k, so its element is a0 + (s − t)·p + l. After stage k − 1 the item moves
// k·p elements on. Items w >= p·k never become active (element kNever).
#pragma once
#include <cuda_runtime.h>

namespace dpgpu::pipeline {

using ll = long long;

inline constexpr ll kNever = ll(1) << 62;

// Item `w`'s stage and element at step `s_begin`.
__device__ __forceinline__ void schedule_item(ll w, ll p, int k, ll a0, ll s_begin, int& stage,
                                              ll& elem) {
  stage = 0;
  elem = kNever;
  if (w < p * k) {
    const ll r = w / p, l = w - r * p;
    const ll t = ((s_begin - r) % k + k) % k;
    stage = int(t);
    elem = a0 + (s_begin - t) * p + l;
  }
}

// One step on: the next stage, or after the last stage the item's next element.
__device__ __forceinline__ void advance_item(ll p, int k, int& stage, ll& elem) {
  if (++stage == k) {
    stage = 0;
    if (elem < kNever) elem += ll(k) * p;
  }
}

}  // namespace dpgpu::pipeline
