// rowwise_kernels.cuh — the kernels of gpu.rowwise.
//
// knapsack_row: one launch per item a (weight w, value v) computes the whole next DP row
//   next[c] = max(prev[c], prev[c - w] + v)      (the second term only for c >= w)
// Thread t owns V = 16 / sizeof(T) consecutive cells c0 = t·V ... c0 + V − 1 (4 int32 or
// 2 int64): prev[c0..] is read and next[c0..] written with one aligned 16-byte access each.
// The shifted read prev[c0 − w ..] is not 16-byte aligned for w % V != 0, so it is V scalar
// loads; across a warp they still cover one contiguous 32·V-cell span (a few more sectors
// than an aligned span), and the V loads of a thread hit the same sectors, served by L1.
// Rows are padded to whole blocks, so every thread computes (the padding cells compute DP
// values for capacities above C that nobody reads) and no thread branches on the row's end.
//
// Decision bits: bit c of the row is set when item a improved capacity c (strictly, so ties
// keep the item out). Each thread has V bits; the G = 32 / V lanes whose cells form one
// 32-cell word OR their bits together with log2(G) xor-shuffles and the group's first lane
// stores the word: word k of a row holds capacities 32k .. 32k + 31.
//
// knapsack_trace: one thread walks the kept bits back from the last row (device-side
// reconstruction when the bits stay on the device): n dependent loads, ~1 µs each.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "readonly.cuh"

namespace dpgpu::rowwise {

using wavefront::fetch;
using wavefront::ReadOnly;
using wavefront::ReadPath;

template <class T>
struct Vec16;
template <>
struct Vec16<std::int32_t> {
  using type = int4;
  static constexpr int cells = 4;
};
template <>
struct Vec16<std::int64_t> {
  using type = longlong2;
  static constexpr int cells = 2;
};

// Values travel as 32-bit words (textures fetch at most 4 bytes): one per item for int32
// cells, two (low, high) for int64 cells.
template <ReadPath P, class T>
__device__ __forceinline__ T item_value(const ReadOnly<std::uint32_t>& values, int a) {
  if constexpr (sizeof(T) == 4) {
    return static_cast<T>(fetch<P>(values, a));
  } else {
    const std::uint64_t lo = fetch<P>(values, 2 * a), hi = fetch<P>(values, 2 * a + 1);
    return static_cast<T>(lo | hi << 32);
  }
}

template <ReadPath P, class T, bool Bits>
__global__ void __launch_bounds__(1024)
    knapsack_row(const T* __restrict__ prev, T* __restrict__ next, std::uint32_t* __restrict__ bits,
                 ReadOnly<std::int32_t> weights, ReadOnly<std::uint32_t> values, int item) {
  using Vec = typename Vec16<T>::type;
  constexpr int V = Vec16<T>::cells;
  const std::int64_t w = fetch<P>(weights, item);
  const T v = item_value<P, T>(values, item);
  const std::int64_t c0 = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * V;

  union {
    Vec vec;
    T cell[V];
  } cur;
  cur.vec = __ldg(reinterpret_cast<const Vec*>(prev + c0));
  unsigned taken = 0;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const std::int64_t src = c0 + k - w;
    if (src >= 0) {
      const T with = __ldg(prev + src) + v;
      if (with > cur.cell[k]) {
        cur.cell[k] = with;
        taken |= 1u << k;
      }
    }
  }
  *reinterpret_cast<Vec*>(next + c0) = cur.vec;

  if constexpr (Bits) {
    constexpr int G = 32 / V;  // lanes per 32-bit word
    const int lane = threadIdx.x & 31;
    unsigned word = taken << (V * (lane % G));
#pragma unroll
    for (int off = 1; off < G; off <<= 1) word |= __shfl_xor_sync(0xffffffffu, word, off);
    if (lane % G == 0) bits[c0 / 32] = word;
  }
}

__global__ void knapsack_trace(const std::uint32_t* __restrict__ bits, std::int64_t words_per_row,
                               const std::int32_t* __restrict__ weights, int items,
                               std::int64_t capacity, std::uint8_t* __restrict__ taken) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  std::int64_t c = capacity;
  for (int a = items - 1; a >= 0; --a) {
    const std::uint32_t word = bits[std::int64_t(a) * words_per_row + c / 32];
    const bool t = (word >> (c % 32)) & 1u;
    taken[a] = t;
    if (t) c -= weights[a];
  }
}

}  // namespace dpgpu::rowwise
