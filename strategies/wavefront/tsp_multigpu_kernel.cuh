// tsp_multigpu_kernel.cuh — one GPU's share of one Held-Karp layer when a layer is split
// across GPUs (tsp_split.hpp): the single-GPU layer kernel (tsp_layer_kernel.cuh) with
//   - the ranks lo .. lo + count − 1 of layer k instead of all of them (cells stored
//     position-major over the share: cell (r, p) at p·count + r − lo);
//   - the previous layer as G shares, each on its GPU (LayerParts): for each position p the
//     thread finds the share that holds rank(S \ {c_p}) (an unrolled select over at most
//     kTspMaxGpus boundaries, in registers) and reads its k − 1 costs there, through peer
//     access (NVLink) when that share is another GPU's;
//   - Mask = uint32 for m <= 32, uint64 beyond (n = 34, 35); ranks stay 32-bit (C(34, 17) < 2^32);
//   - per warp, the relaxations that read another GPU's share, added to `exchange` once.
// Distances are staged in shared memory per block (the default of the single-GPU kernel).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>

#include "tsp_split.hpp"

namespace dpgpu::wavefront::tsp_multi {

inline constexpr int kBinomRows = kTspMultiBinomRows;
inline constexpr int kBinomWords = kTspMultiBinomWords;

// Layer k − 1 as the GPUs hold it: share g is ranks lo[g] .. lo[g + 1] − 1 at part[g].
template <class Cost>
struct LayerParts {
  const Cost* part[kTspMaxGpus] = {};
  std::uint32_t lo[kTspMaxGpus + 1] = {};
  int gpus = 1;
};

template <class Cost>
constexpr std::size_t shared_bytes(int m) {
  return std::size_t(kBinomWords) * 4 + std::size_t(m) * std::size_t(m | 1) * sizeof(Cost);
}

template <class Mask>
__device__ __forceinline__ int lowest(Mask x) {
  if constexpr (sizeof(Mask) == 4)
    return __ffs(static_cast<int>(x)) - 1;
  else
    return __ffsll(static_cast<long long>(x)) - 1;
}

template <class Mask>
__device__ __forceinline__ Mask unrank(int m, int k, std::uint32_t r, const std::uint32_t* binom) {
  auto B = [binom](int c, int i) { return binom[c * kBinomRows + i]; };
  int c = k - 1;
  while (c + 1 < m && B(c + 1, k) <= r) ++c;
  Mask mask = 0;
  for (int i = k; i >= 1; --i) {
    while (B(c, i) > r) --c;  // stops by c = i - 1, where C(i-1, i) = 0
    mask |= Mask(1) << c;
    r -= B(c, i);
    --c;
  }
  return mask;
}

// Share `lo .. lo + count − 1` of layer k (2 <= k <= m <= 34) from layer k − 1 (`prev`).
// cur: count × k costs; argmin (kArgmin): count × k predecessor cities; arcs: m × m, arc
// c → j at j·m + c; binom: kBinomRows² words; `self`: this GPU's index among prev's shares.
template <class Cost, class Mask, bool kArgmin>
__global__ void __launch_bounds__(1024)
    held_karp_share(LayerParts<Cost> prev, Cost* __restrict__ cur,
                    std::uint8_t* __restrict__ argmin, const Cost* __restrict__ arcs_global,
                    const std::uint32_t* __restrict__ binom_global, int m, int k, std::uint32_t lo,
                    std::uint32_t count, int self, unsigned long long* __restrict__ exchange) {
  extern __shared__ __align__(16) unsigned char shared_raw[];
  std::uint32_t* binom = reinterpret_cast<std::uint32_t*>(shared_raw);
  Cost* arcs = reinterpret_cast<Cost*>(shared_raw + kBinomWords * 4);
  const int stride = m | 1;  // odd row stride: fewer bank conflicts between different columns
  for (int e = threadIdx.x; e < kBinomRows * kBinomRows; e += blockDim.x)
    binom[e] = binom_global[e];
  for (int e = threadIdx.x; e < m * m; e += blockDim.x)
    arcs[(e / m) * stride + e % m] = __ldg(arcs_global + e);
  __syncthreads();
  auto B = [binom](int c, int i) { return binom[c * kBinomRows + i]; };

  unsigned long long remote = 0;
  const std::uint32_t step = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step) {
    const Mask S = unrank<Mask>(m, k, lo + i, binom);
    std::uint32_t above = 0, below = 0;  // rank(S \ {c_p}) = below + above
    {
      Mask t = S & (S - 1);
      for (int q = 1; t != 0; ++q, t &= t - 1) above += B(lowest(t), q);
    }
    Mask rest = S;
    for (int p = 0; p < k; ++p) {
      const int cp = lowest(rest);
      rest &= rest - 1;
      if (p > 0) above -= B(cp, p);
      const std::uint32_t pr = below + above;
      const Cost* base = prev.part[0];
      std::uint32_t plo = prev.lo[0], phi = prev.lo[1];
      int owner = 0;
#pragma unroll
      for (int g = 1; g < kTspMaxGpus; ++g)
        if (g < prev.gpus && prev.lo[g] <= pr) {
          base = prev.part[g], plo = prev.lo[g], phi = prev.lo[g + 1];
          owner = g;
        }
      if (owner != self) remote += unsigned(k - 1);
      const Cost* src = base + (pr - plo);
      const std::size_t pstride = phi - plo;
      Mask u = S & ~(Mask(1) << cp);
      int arg = lowest(u);
      Cost best = std::numeric_limits<Cost>::max();
#pragma unroll 4
      for (int q = 0; q < k - 1; ++q) {
        const int c = lowest(u);
        u &= u - 1;
        const Cost v = src[std::size_t(q) * pstride] + arcs[cp * stride + c];
        if (v < best) best = v, arg = c;
      }
      const std::size_t cell = std::size_t(p) * count + i;
      cur[cell] = best;
      if constexpr (kArgmin) argmin[cell] = static_cast<std::uint8_t>(arg);
      below += B(cp, p + 1);
    }
  }
  for (int o = 16; o > 0; o >>= 1) remote += __shfl_down_sync(0xffffffffu, remote, o);
  if ((threadIdx.x & 31) == 0 && remote != 0) atomicAdd(exchange, remote);
}

}  // namespace dpgpu::wavefront::tsp_multi
