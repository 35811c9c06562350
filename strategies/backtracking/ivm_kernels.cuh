// ivm_kernels.cuh — the kernels of gpu.ivm (paper 004, Algorithms 1 and 2): TreeExplore,
// computeLengths (with the mean and the end test folded into one reduction), trySelect (one
// launch per hypercube dimension and offset) and stealWork.
#pragma once
#include <cstdint>

#include "factoradic.hpp"
#include "hypercube.hpp"
#include "incumbent.cuh"
#include "ivm_explorer.hpp"
#include "ivm_packed.hpp"

namespace dpgpu::backtracking::ivm_kernel {

struct Totals {
  unsigned long long length_sum;  // sum of the interval lengths (<= m! < 2^64)
  unsigned int active;            // explorers with a non-empty interval
  unsigned int empty;             // TreeExplore: explorers that found their interval empty
};

// What an explorer does with a tour <= the bound: the matrix explorer passes its city array,
// the packed one a function giving the i-th city of the tour.
template <class Cost>
struct OfferTours {
  DeviceIncumbent<Cost>& inc;
  int n;
  __device__ Cost bound() const { return inc.bound(); }
  __device__ void offer(Cost tour, const std::uint8_t* city, int k, int last) {
    inc.record(tour, n, [&](int i) { return i <= k ? int(city[i]) : last; });
  }
  template <class CityAt>
  __device__ void offer_path(Cost tour, int count, CityAt city_at) {
    inc.record(tour, count, city_at);
  }
};

// TreeExplore for one explorer type (IvmExplorer: the matrix in local memory; IvmPacked: the
// packed state in registers): each thread loads its explorer (or builds it from a fresh
// interval), explores until its interval is empty, the trigger count is reached or `slice`
// polls have passed, and writes it back.
template <class Explorer, class Cost>
__device__ __forceinline__ void tree_explore_body(
    Explorer* __restrict__ state, std::uint64_t* __restrict__ pos,
    const std::uint64_t* __restrict__ end, std::uint8_t* __restrict__ fresh, int explorers, int m,
    const Cost* __restrict__ dist, IncumbentState* inc_g, Cost start_bound, Totals* totals,
    unsigned long long* nodes_g, unsigned trigger, unsigned poll, unsigned slice) {
  extern __shared__ unsigned char smem_raw[];
  const int n = m + 1;
  auto* fact = reinterpret_cast<std::uint64_t*>(smem_raw);
  Cost* d = reinterpret_cast<Cost*>(smem_raw + sizeof(std::uint64_t) * (kIvmMaxFree + 1));
  for (int i = threadIdx.x; i < n * n; i += blockDim.x) d[i] = dist[i];
  if (threadIdx.x <= kIvmMaxFree) fact[threadIdx.x] = factorial(threadIdx.x);
  __syncthreads();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint64_t my_nodes = 0;
  if (t < explorers) {
    DeviceIncumbent<Cost> inc(inc_g, start_bound);
    const SharedArcs<Cost> arcs{d, n};
    Explorer e;
    if (fresh[t]) {
      ivm_init(e, m, arcs, inc.bound(), pos[t], end[t]);
      fresh[t] = 0;
    } else {
      e = state[t];
      e.pos = pos[t];
      e.end = end[t];
    }
    OfferTours<Cost> policy{inc, n};
    unsigned it = 0;
    unsigned polls = 0;
    const volatile unsigned* empty = &totals->empty;
    const IvmStop why = ivm_explore(e, m, arcs, fact, policy, my_nodes, [&] {
      if (++it < poll) return false;
      it = 0;
      inc.refresh();
      return *empty >= trigger || ++polls >= slice;
    });
    if (why == IvmStop::Empty) atomicAdd(&totals->empty, 1u);
    state[t] = e;
    pos[t] = e.pos;
  }
  for (int o = 16; o > 0; o /= 2) my_nodes += __shfl_down_sync(0xffffffffu, my_nodes, o);
  if ((threadIdx.x & 31) == 0 && my_nodes)
    atomicAdd(nodes_g, static_cast<unsigned long long>(my_nodes));
}

#define DPGPU_TREE_EXPLORE_ARGS                                                               \
  Explorer *__restrict__ state, std::uint64_t *__restrict__ pos,                              \
      const std::uint64_t *__restrict__ end, std::uint8_t *__restrict__ fresh, int explorers, \
      int m, const Cost *__restrict__ dist, IncumbentState *inc_g, Cost start_bound,          \
      Totals *totals, unsigned long long *nodes_g, unsigned trigger, unsigned poll, unsigned slice
#define DPGPU_TREE_EXPLORE_CALL                                                                   \
  state, pos, end, fresh, explorers, m, dist, inc_g, start_bound, totals, nodes_g, trigger, poll, \
      slice

// The matrix explorer: its ~380-byte state lives in local memory whatever the register count.
template <class Explorer, class Cost>
__global__ void tree_explore(DPGPU_TREE_EXPLORE_ARGS) {
  tree_explore_body<Explorer, Cost>(DPGPU_TREE_EXPLORE_CALL);
}

// The packed explorer: capped at 32 registers (2048 threads per SM, every block size) so that
// the default 8^6 explorers are all resident on an H100 (132 SMs x 2048 = 270336 slots).
template <class Explorer, class Cost>
__global__ void __launch_bounds__(1024, 2) tree_explore_resident(DPGPU_TREE_EXPLORE_ARGS) {
  tree_explore_body<Explorer, Cost>(DPGPU_TREE_EXPLORE_CALL);
}

#undef DPGPU_TREE_EXPLORE_ARGS
#undef DPGPU_TREE_EXPLORE_CALL

// (The plain kernels below are static: this header is included by ivm.cu and ivm_multi.cu.)

// computeLengths + computeMeanLength + determine-end: every length, and in one reduction
// their sum (the mean is sum / T, taken by trySelect) and the number of non-empty intervals.
static __global__ void compute_lengths(const std::uint64_t* __restrict__ pos,
                                       const std::uint64_t* __restrict__ end,
                                       std::uint64_t* __restrict__ length, int explorers,
                                       Totals* totals) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint64_t len = 0;
  if (t < explorers) {
    len = interval_length(pos[t], end[t]);
    length[t] = len;
  }
  unsigned active = len > 0;
  for (int o = 16; o > 0; o /= 2) {
    len += __shfl_down_sync(0xffffffffu, len, o);
    active += __shfl_down_sync(0xffffffffu, active, o);
  }
  if ((threadIdx.x & 31) == 0 && active) {
    atomicAdd(&totals->length_sum, static_cast<unsigned long long>(len));
    atomicAdd(&totals->active, active);
  }
}

// One (dimension, offset) of the victim selection: an empty explorer without a victim takes
// its neighbour as victim when that one is not yet taken and holds more than the mean (and at
// least 2 leaves, so that both halves are non-empty).
static __global__ void try_select(const std::uint64_t* __restrict__ length,
                                  int* __restrict__ victim, std::uint8_t* __restrict__ selected,
                                  int explorers, std::uint32_t stride, std::uint32_t arity,
                                  std::uint32_t offset, const Totals* totals) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= explorers || length[t] != 0 || victim[t] >= 0) return;
  const std::uint64_t mean = totals->length_sum / std::uint64_t(explorers);
  const std::uint32_t v = hypercube_neighbor(std::uint32_t(t), stride, arity, offset);
  if (selected[v] || length[v] <= mean || length[v] < 2) return;
  victim[t] = int(v);
  selected[v] = 1;
}

// The thief takes the right half of its victim's interval; it builds its IVM from the new
// interval's first leaf at the start of the next TreeExplore (fresh).
static __global__ void steal_work(const int* __restrict__ victim, std::uint64_t* __restrict__ pos,
                                  std::uint64_t* __restrict__ end, std::uint8_t* __restrict__ fresh,
                                  int explorers, unsigned long long* steals) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= explorers) return;
  const int v = victim[t];
  if (v < 0) return;
  const std::uint64_t e = end[v];
  const std::uint64_t s = steal_split(pos[v], e);
  end[v] = s;
  pos[t] = s;
  end[t] = e;
  fresh[t] = 1;
  atomicAdd(steals, 1ull);
}

// Across GPUs (ivm_multi.cu). The victim GPU gives away the right half of every explorer's
// interval (those holding at least 2 leaves; the others give an empty one), as stealWork
// does within a GPU: the victim's explorers keep their state and their shortened end.
static __global__ void give_halves(std::uint64_t* __restrict__ pos, std::uint64_t* __restrict__ end,
                                   std::uint64_t* __restrict__ out_pos,
                                   std::uint64_t* __restrict__ out_end, int explorers) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= explorers) return;
  const std::uint64_t p = pos[t], e = end[t];
  std::uint64_t s = e;
  if (interval_length(p, e) >= 2) s = steal_split(p, e);
  end[t] = s;
  out_pos[t] = s;
  out_end[t] = e;
}

// The thief GPU (every interval empty) takes the given intervals, explorer t the one of the
// victim's explorer t, and builds its IVMs at the start of the next TreeExplore.
static __global__ void take_intervals(const std::uint64_t* __restrict__ in_pos,
                                      const std::uint64_t* __restrict__ in_end,
                                      std::uint64_t* __restrict__ pos,
                                      std::uint64_t* __restrict__ end,
                                      std::uint8_t* __restrict__ fresh, int explorers) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= explorers) return;
  pos[t] = in_pos[t];
  end[t] = in_end[t];
  fresh[t] = 1;
}

// A bound found on another GPU, lowered into this GPU's incumbent between two launches.
static __global__ void lower_bound(IncumbentState* inc, unsigned long long bound) {
  atomicMin(&inc->bound, bound);
}

}  // namespace dpgpu::backtracking::ivm_kernel
