// tsp_layer_kernel.cuh — one Held-Karp layer (all subsets of one size: the TSP's "diagonal")
// on the GPU. Layout and numbering: tsp_config.hpp.
//
// One thread per subset S of layer k (rank r, grid-stride over the layer). The thread unranks
// S once, then for each position p (last city c_p) relaxes the k-1 predecessors:
//   cost(S, c_p) = min over q ∈ S \ {c_p} of prev(S \ {c_p}, pos(q)) + d(q → c_p)
// The rank of S \ {c_p} is Σ_{q<p} C(c_q, q+1) + Σ_{q>p} C(c_q, q), kept as two running sums
// (`below`, `above`) while p advances: O(1) per p. Binomials (and, by default, the distances)
// sit in shared memory. Warps never diverge on loop bounds: every thread of a layer has k·(k-1)
// relaxations.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>

#include "readonly.cuh"

namespace dpgpu::wavefront::tsp_kernel {

inline constexpr int kBinomRows = 33;                            // C(c, i) for c, i in 0..32
inline constexpr int kBinomWords = kBinomRows * kBinomRows + 1;  // padded to 8-byte alignment

// Shared-memory bytes of a launch: binomials, then the staged (n-1)² distances if any.
template <class Cost>
constexpr std::size_t shared_bytes(int m, bool staged) {
  return kBinomWords * 4 + (staged ? std::size_t(m) * std::size_t(m | 1) * sizeof(Cost) : 0);
}

// Arc c → j (others' numbering) from the device matrix `into` of words: entry j·m + c, one
// 32-bit word per int32 cost, two (low, high) per int64 cost.
template <ReadPath P, class Cost>
__device__ __forceinline__ Cost arc_from(const ReadOnly<std::uint32_t>& into, int e) {
  if constexpr (sizeof(Cost) == 4) {
    return static_cast<Cost>(static_cast<std::int32_t>(fetch<P>(into, e)));
  } else {
    const std::uint64_t lo = fetch<P>(into, 2 * e), hi = fetch<P>(into, 2 * e + 1);
    return static_cast<Cost>((hi << 32) | lo);
  }
}

__device__ __forceinline__ std::uint32_t unrank32(int m, int k, std::uint32_t r,
                                                  const std::uint32_t* binom) {
  auto B = [binom](int c, int i) { return binom[c * kBinomRows + i]; };
  int c = k - 1;
  while (c + 1 < m && B(c + 1, k) <= r) ++c;
  std::uint32_t mask = 0;
  for (int i = k; i >= 1; --i) {
    while (B(c, i) > r) --c;  // stops by c = i - 1, where C(i-1, i) = 0
    mask |= 1u << c;
    r -= B(c, i);
    --c;
  }
  return mask;
}

// Layer k (2 <= k <= m <= 32) from layer k-1. prev: C(m,k-1) × (k-1) costs, position-major;
// cur: C(m,k) × k costs; argmin (when kArgmin): C(m,k) × k predecessor cities.
template <class Cost, ReadPath P, bool kStaged, bool kArgmin>
__global__ void __launch_bounds__(1024)
    held_karp_layer(const Cost* __restrict__ prev, Cost* __restrict__ cur,
                    std::uint8_t* __restrict__ argmin, ReadOnly<std::uint32_t> into,
                    const std::uint32_t* __restrict__ binom_global, int m, int k,
                    std::uint32_t count, std::uint32_t prev_count) {
  extern __shared__ __align__(16) unsigned char shared_raw[];
  std::uint32_t* binom = reinterpret_cast<std::uint32_t*>(shared_raw);
  Cost* arcs = reinterpret_cast<Cost*>(shared_raw + kBinomWords * 4);
  const int stride = m | 1;  // odd row stride: fewer bank conflicts between different columns
  for (int e = threadIdx.x; e < kBinomRows * kBinomRows; e += blockDim.x)
    binom[e] = binom_global[e];
  if constexpr (kStaged) {
    for (int e = threadIdx.x; e < m * m; e += blockDim.x)
      arcs[(e / m) * stride + e % m] = arc_from<P, Cost>(into, e);
  }
  __syncthreads();
  auto B = [binom](int c, int i) { return binom[c * kBinomRows + i]; };

  const std::uint32_t step = gridDim.x * blockDim.x;
  for (std::uint32_t r = blockIdx.x * blockDim.x + threadIdx.x; r < count; r += step) {
    const std::uint32_t S = unrank32(m, k, r, binom);
    // above = Σ_{q>=1} C(c_q, q): the predecessor rank's part above position 0.
    std::uint32_t above = 0, below = 0;
    {
      std::uint32_t t = S & (S - 1);
      for (int q = 1; t != 0; ++q, t &= t - 1) above += B(__ffs(t) - 1, q);
    }
    std::uint32_t rest = S;
    for (int p = 0; p < k; ++p) {
      const int cp = __ffs(rest) - 1;
      rest &= rest - 1;
      if (p > 0) above -= B(cp, p);
      const Cost* src = prev + (below + above);
      std::uint32_t u = S & ~(1u << cp);
      int arg = __ffs(u) - 1;
      Cost best = std::numeric_limits<Cost>::max();
#pragma unroll 4
      for (int q = 0; q < k - 1; ++q) {
        const int c = __ffs(u) - 1;
        u &= u - 1;
        Cost d;
        if constexpr (kStaged)
          d = arcs[cp * stride + c];
        else
          d = arc_from<P, Cost>(into, cp * m + c);
        const Cost v = src[std::size_t(q) * prev_count] + d;
        if (v < best) best = v, arg = c;
      }
      const std::size_t cell = std::size_t(p) * count + r;
      cur[cell] = best;
      if constexpr (kArgmin) argmin[cell] = static_cast<std::uint8_t>(arg);
      below += B(cp, p + 1);
    }
  }
}

}  // namespace dpgpu::wavefront::tsp_kernel
