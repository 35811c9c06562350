// mcm_kernels.cuh — the paper's three kernels, one launch (or two) per diagonal l:
// OneThreadPerOneEntry, OneBlockPerOneEntry, BlocksPerOneEntry; and the walk that lists the
// splits of the optimal tree. Cells are T (uint32, with an escape to 64 bits unless every
// cost provably fits, or uint64); candidates are summed in 64 bits, which the solver's bound
// check keeps from overflowing.
#pragma once
#include <cstdint>

#include "mcm/split_walk.hpp"
#include "mcm_layout.cuh"

namespace dpgpu::mcm_gpu {

using u64 = unsigned long long;
constexpr u64 kNone = ~u64(0);

// (value, split) minimum; ties keep the smaller split, so any reduction order agrees.
struct Best {
  u64 v;
  int c;
};
__device__ inline Best better(Best x, Best y) {
  return (y.v < x.v || (y.v == x.v && y.c < x.c)) ? y : x;
}

__device__ inline Best warp_min(Best b) {
  for (int o = 16; o > 0; o >>= 1) {
    Best other{__shfl_xor_sync(0xffffffffu, b.v, o), __shfl_xor_sync(0xffffffffu, b.c, o)};
    b = better(b, other);
  }
  return b;
}

// Block-wide minimum (blockDim.x a multiple of 32); every thread gets the result.
__device__ inline Best block_min(Best b) {
  __shared__ u64 sv[32];
  __shared__ int sc[32];
  b = warp_min(b);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  if (warps == 1) return b;
  if (lane == 0) {
    sv[warp] = b.v;
    sc[warp] = b.c;
  }
  __syncthreads();
  Best r{kNone, 0x7fffffff};
  if (lane < warps) r = Best{sv[lane], sc[lane]};
  r = warp_min(r);
  __syncthreads();  // sv/sc reused by the next call
  return r;
}

// OneThreadPerOneEntry: thread a computes (a, a + l) over the diagonal-major table.
template <class T>
__global__ void one_thread_per_entry(Table<T> tab, ll l) {
  const ll a = ll(blockIdx.x) * blockDim.x + threadIdx.x;
  const ll w = tab.w;
  if (a + l >= w) return;
  const u64 pab = u64(tab.p[a]) * u64(tab.p[a + l]);
  ll left = diag_offset(w, 1) + a;           // M[a][a+t] at t = 1
  ll right = diag_offset(w, l - 1) + a + 1;  // M[a+t][a+l] at t = 1
  Best best{kNone, 0};
  // Few threads per launch (w - l): unrolled so each thread keeps many loads in flight.
#pragma unroll 8
  for (ll t = 1; t < l; ++t) {
    const u64 q = tab.get(tab.diag[left], a, a + t) + tab.get(tab.diag[right], a + t, a + l) +
                  pab * u64(tab.p[a + t]);
    if (q < best.v) best = Best{q, int(a + t)};
    left += w - t;                 // diagonal t -> t + 1, same a
    right -= w - (l - t - 1) - 1;  // diagonal l - t -> l - t - 1, index + 1
  }
  tab.store(a, l, best.v, best.c);
}

// The c-range [c0, c1) of entry (a, a + l) by the threads of one block, over the symmetric table.
template <class T>
__device__ inline Best block_range(const Table<T>& tab, ll a, ll l, ll c0, ll c1) {
  const ll w = tab.w, b = a + l;
  const u64 pab = u64(tab.p[a]) * u64(tab.p[b]);
  const T* row = tab.sym + a * w;  // M[a][c]
  const T* col = tab.sym + b * w;  // M[c][b]
  Best best{kNone, 0x7fffffff};
  for (ll c = c0 + threadIdx.x; c < c1; c += blockDim.x) {
    const u64 q = tab.get(row[c], a, c) + tab.get(col[c], c, b) + pab * u64(tab.p[c]);
    if (q < best.v) best = Best{q, int(c)};
  }
  return block_min(best);
}

// OneBlockPerOneEntry: block a computes (a, a + l).
template <class T>
__global__ void one_block_per_entry(Table<T> tab, ll l) {
  const ll a = blockIdx.x;
  const Best b = block_range(tab, a, l, a + 1, a + l);
  if (threadIdx.x == 0) tab.store(a, l, b.v, b.c);
}

// BlocksPerOneEntry, first launch: block (a, g) of `parts` takes part g of the splits.
template <class T>
__global__ void blocks_per_entry_partial(Table<T> tab, ll l, int parts, u64* part_v, int* part_c) {
  const ll a = blockIdx.x;
  const int g = blockIdx.y;
  const ll splits = l - 1, chunk = (splits + parts - 1) / parts;
  const ll c0 = a + 1 + g * chunk, c1 = min(a + l, c0 + chunk);
  const Best b = block_range(tab, a, l, c0, c1);
  if (threadIdx.x == 0) {
    part_v[a * parts + g] = b.v;
    part_c[a * parts + g] = b.c;
  }
}

// BlocksPerOneEntry, second launch: one warp per entry takes the minimum of its parts.
template <class T>
__global__ void blocks_per_entry_final(Table<T> tab, ll l, int parts, const u64* part_v,
                                       const int* part_c) {
  const ll a = ll(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  if (a + l >= tab.w) return;  // whole warps leave together
  Best b{kNone, 0x7fffffff};
  for (int g = lane; g < parts; g += 32)
    b = better(b, Best{part_v[a * parts + g], part_c[a * parts + g]});
  b = warp_min(b);
  if (lane == 0) tab.store(a, l, b.v, b.c);
}

// One thread walks the tree of splits from [0, n) in preorder and lists them (n - 1 values):
// n dependent loads, so the host copies n values, not the whole split table.
template <class SplitOf>
__global__ void walk_splits(SplitOf split_of, ll n, int* out, ll* stack) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  ::mcm::walk_splits_preorder(split_of, n, out, stack);
}

// walk_splits with a warp: lane 0 keeps the stack, every lane helps resolve a split.
template <class SplitOf>
__global__ void walk_splits_warp(SplitOf split_of, long long n, int* out, long long* stack) {
  if (blockIdx.x != 0) return;
  const int lane = threadIdx.x;
  long long top = 0, k = 0;
  if (lane == 0) stack[top++] = n;
  while (__shfl_sync(0xffffffffu, top, 0) > 0) {
    long long item = 0;
    if (lane == 0) item = stack[--top];
    item = __shfl_sync(0xffffffffu, item, 0);
    const long long a = item >> 32, b = item & 0xffffffffLL;
    if (b - a < 2) continue;
    const long long c = split_of(a, b, lane);  // the same in every lane
    if (lane == 0) out[k] = int(c);
    ++k;
    if (c < 0) return;  // not reached; the host's parenthesize rejects the split -1
    if (lane == 0) {
      stack[top++] = (c << 32) | b;  // right after left
      stack[top++] = (a << 32) | c;
    }
  }
}

// split_of for the diagonal-major split table of gpu.mcm.
struct DiagSplit {
  const std::int32_t* split;
  ll w;
  __device__ int operator()(ll a, ll b) const { return split[diag_offset(w, b - a) + a]; }
};

}  // namespace dpgpu::mcm_gpu
