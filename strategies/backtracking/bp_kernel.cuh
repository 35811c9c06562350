// bp_kernel.cuh — gpu.bpdfs's one kernel (paper 004, Sect. 2.3, Fig. 1): thread i takes
// active-set node i as its root and explores its subtree with the bitset search, rereading
// the shared bound every `poll` node evaluations.
#pragma once
#include <cstdint>

#include "bp_explorer.hpp"
#include "incumbent.cuh"

namespace dpgpu::backtracking::bp_kernel {

template <class Cost>
__global__ void explore_active_set(const std::uint8_t* __restrict__ cycles,
                                   const std::uint32_t* __restrict__ bitsets,
                                   const Cost* __restrict__ costs, std::uint64_t count, int depth,
                                   int n, const Cost* __restrict__ dist, IncumbentState* inc_g,
                                   Cost start_bound, unsigned poll, unsigned long long* nodes_g) {
  extern __shared__ unsigned char smem_raw[];
  Cost* d = reinterpret_cast<Cost*>(smem_raw);
  for (int i = threadIdx.x; i < n * n; i += blockDim.x) d[i] = dist[i];
  __syncthreads();
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint64_t my_nodes = 0;
  if (t < count) {
    BpFrame<Cost> frames[kBpMaxCities];
    const std::uint8_t* cycle = cycles + t * std::uint64_t(depth);
    for (int i = 0; i < depth; ++i) frames[i].city = cycle[i];
    const std::uint32_t all = n == 32 ? ~0u : (1u << n) - 1;
    BpFrame<Cost>& top = frames[depth - 1];
    top.free = all & ~bitsets[t];
    top.todo = top.free;
    top.cost = costs[t];
    DeviceIncumbent<Cost> inc(inc_g, start_bound);
    // bound() is asked once per node evaluation: every `poll` asks reread the shared bound, so
    // a tour found by another thread prunes here too (as gpu.ivm's explorers do).
    struct Offer {
      DeviceIncumbent<Cost>& inc;
      int n;
      unsigned poll, it;
      __device__ Cost bound() {
        if (++it >= poll) {
          it = 0;
          inc.refresh();
        }
        return inc.bound();
      }
      __device__ void offer(Cost tour, const BpFrame<Cost>* f, int last_index, int last) {
        inc.record(tour, n, [&](int i) { return i <= last_index ? int(f[i].city) : last; });
      }
    } policy{inc, n, poll, 0};
    my_nodes = bp_explore(SharedArcs<Cost>{d, n}, n, frames, depth - 1, policy);
  }
  for (int o = 16; o > 0; o /= 2) my_nodes += __shfl_down_sync(0xffffffffu, my_nodes, o);
  if ((threadIdx.x & 31) == 0 && my_nodes)
    atomicAdd(nodes_g, static_cast<unsigned long long>(my_nodes));
}

}  // namespace dpgpu::backtracking::bp_kernel
