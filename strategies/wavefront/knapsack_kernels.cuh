// knapsack_kernels.cuh — gpu.wavefront's knapsack device code besides the recurrence (which is
// KnapsackRecurrence in knapsack_adapter.cuh, run by the engine's generic step kernel).
//
// The model: one launch per anti-diagonal d; thread i computes cell (i, c = d − i):
//   D[i][c] = max(D[i−1][c], D[i−1][c − w_i] + v_i)      (second term only for c >= w_i)
// reading (i − 1, c) from diagonal d − 1 and (i − 1, c − w_i) from diagonal d − 1 − w_i, both
// at index i − 1 (+ kRowOffset) of their ring slot, so neighbouring threads touch
// neighbouring words of every diagonal. A launch covers the diagonal's rows rounded out to
// whole blocks; surplus threads (c < 0, c > C, or padding items of weight 0 and value 0)
// compute into cells nobody reads instead of branching: a real cell only reads real cells
// of the row above, and each buffer index holds one row only. Row −1 is index
// kRowOffset − 1 of every slot, zero and never written.
//
// Decision bits: one ballot per warp, word i / 32 of the diagonal's bit row; bit set when
// item i improved capacity c (strictly).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "knapsack_config.hpp"
#include "readonly.cuh"

namespace dpgpu::wavefront {

template <ReadPath P, class T>
__device__ __forceinline__ T knapsack_item_value(const ReadOnly<std::uint32_t>& values, int i) {
  if constexpr (sizeof(T) == 4) {
    return static_cast<T>(fetch<P>(values, i));
  } else {
    const std::uint64_t lo = fetch<P>(values, 2 * i), hi = fetch<P>(values, 2 * i + 1);
    return static_cast<T>(lo | hi << 32);
  }
}

// Walks the kept bits back from the last row on the device (bits kept, not offloaded).
__global__ void knapsack_diagonal_trace(const std::uint32_t* __restrict__ bits,
                                        std::int64_t words_per_diagonal,
                                        const std::int32_t* __restrict__ weights, int items,
                                        std::int64_t capacity, std::uint8_t* __restrict__ taken) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  std::int64_t c = capacity;
  for (int i = items - 1; i >= 0; --i) {
    const std::int64_t d = i + c;
    const bool t = (bits[d * words_per_diagonal + i / 32] >> (i % 32)) & 1u;
    taken[i] = t;
    if (t) c -= weights[i];
  }
}

}  // namespace dpgpu::wavefront
