// tsp_multigpu_share.hpp — the work of one thread of the multi-GPU Held-Karp layer kernel
// (tsp_multigpu_kernel.cuh), host- and device-compilable, so that test_tsp_share_on_cpu.cpp
// runs the same code on the CPU over every subset of small instances (G simulated GPUs, the
// host's argmin layout, the tour walk) without a GPU.
//
// Subset S of rank lo + i in layer k (one GPU's share lo .. lo + count − 1, tsp_split.hpp):
// for each position p (last city c_p) the cheapest k − 1 predecessors of S \ {c_p}, read in
// the share of layer k − 1 that holds rank(S \ {c_p}) — found with an unrolled select over at
// most kTspMaxGpus boundaries (registers on the GPU) — and written position-major over the
// share: cell (i, p) at p·count + i. rank(S \ {c_p}) = below + above, two running sums
// updated in O(1) per p (as in tsp_layer_kernel.cuh). Mask = uint32 for m <= 32, uint64
// beyond; ranks are 32-bit (C(34, 17) < 2^32).
#pragma once
#include <bit>
#include <cstdint>
#include <limits>

#include "tsp/subset_rank.hpp"  // TSP_HOST_DEVICE
#include "tsp_split.hpp"

#if defined(__CUDACC__)
#define TSP_SHARE_INLINE __host__ __device__ __forceinline__
#else
#define TSP_SHARE_INLINE inline
#endif

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

template <class Mask>
TSP_SHARE_INLINE int lowest(Mask x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Mask) == 4)
    return __ffs(static_cast<int>(x)) - 1;
  else
    return __ffsll(static_cast<long long>(x)) - 1;
#else
  return std::countr_zero(x);
#endif
}

// The k-subset of {0..m−1} of rank r; binom: C(c, i) at c·kBinomRows + i.
template <class Mask>
TSP_SHARE_INLINE Mask unrank(int m, int k, std::uint32_t r, const std::uint32_t* binom) {
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

// Subset lo + i of layer k (2 <= k <= m <= 34): its k costs into `cur` (and argmins), from
// `prev`; arcs: arc c → j at j·(m | 1) + c; `self`: this GPU's share index. Returns the
// relaxations that read another GPU's share (k − 1 per such position).
template <class Cost, class Mask, bool kArgmin>
TSP_SHARE_INLINE unsigned long long relax_subset(const LayerParts<Cost>& prev, Cost* cur,
                                                 std::uint8_t* argmin, const Cost* arcs,
                                                 const std::uint32_t* binom, int m, int k,
                                                 std::uint32_t lo, std::uint32_t count,
                                                 std::uint32_t i, int self) {
  auto B = [binom](int c, int j) { return binom[c * kBinomRows + j]; };
  const int stride = m | 1;
  unsigned long long remote = 0;
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
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
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
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
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
  return remote;
}

}  // namespace dpgpu::wavefront::tsp_multi
