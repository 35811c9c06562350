// tsp_multigpu_kernel.cuh — one GPU's share of one Held-Karp layer when a layer is split
// across GPUs (tsp_split.hpp): the single-GPU layer kernel (tsp_layer_kernel.cuh) over the
// ranks lo .. lo + count − 1 only, reading the previous layer's shares where they are (its
// own, or another card's through peer access). A thread per subset, grid-striding; each
// subset's work is relax_subset (tsp_multigpu_share.hpp, also run on the CPU by
// test_tsp_share_on_cpu.cpp). Binomials and distances are staged in shared memory per block;
// per warp, the relaxations that read another GPU's share are added to `exchange` once.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "tsp_multigpu_share.hpp"

namespace dpgpu::wavefront::tsp_multi {

template <class Cost>
constexpr std::size_t shared_bytes(int m) {
  return std::size_t(kBinomWords) * 4 + std::size_t(m) * std::size_t(m | 1) * sizeof(Cost);
}

// Share `lo .. lo + count − 1` of layer k (2 <= k <= m <= 34) from layer k − 1 (`prev`).
// cur: count × k costs; argmin (kArgmin): count × k predecessor cities; arcs_global: m × m,
// arc c → j at j·m + c; binom_global: kBinomRows² words; `self`: this GPU's share index.
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

  unsigned long long remote = 0;
  const std::uint32_t step = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step)
    remote +=
        relax_subset<Cost, Mask, kArgmin>(prev, cur, argmin, arcs, binom, m, k, lo, count, i, self);
  for (int o = 16; o > 0; o >>= 1) remote += __shfl_down_sync(0xffffffffu, remote, o);
  if ((threadIdx.x & 31) == 0 && remote != 0) atomicAdd(exchange, remote);
}

}  // namespace dpgpu::wavefront::tsp_multi
