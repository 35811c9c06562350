// myers_kernel.cuh — the Myers pass on the GPU (myers_pass.hpp says what a pass computes).
//
// Work unit: a stripe of 32·W consecutive 64-bit words of one job's column, owned by one warp
// (lane l holds words l·W .. l·W + W - 1 of the stripe as Pv/Mv in registers, their match
// masks Eq in shared memory). The stripe walks all rows of its job as a systolic array: lane
// l handles row t - l at step t, so the horizontal delta leaving lane l's words for a row is
// what lane l + 1 needs one step later (one shuffle). A row's symbol comes from a second
// shuffle of the group's 32 symbols. Lane 0 takes its delta from the stripe below (+1, the
// top boundary, in stripe 0); lane 31 packs the deltas of 32 rows into one 64-bit slot, two
// bits a row as delta + 2 (1, 2 or 3, never 0), so a slot is ready exactly when it is not 0
// (slots are zeroed before the launch) and one relaxed 64-bit store publishes it with no
// fence. At the end each stripe adds its share of the distance to the job's counter (and
// writes its words of the last column where asked). Stripes are handed out by one atomic ticket in job-then-stripe order; a stripe waits
// only for its predecessor, which holds an earlier ticket and is already running, so any
// grid size is deadlock-free and the stripes advance as a diagonal wavefront.
// (The structure is gpu.bitparallel's for LCS, strategies/bitparallel, written anew for
// Myers' two vectors and a three-valued carry.)
#pragma once
#include <cstdint>

#include "myers_step.hpp"

namespace dpgpu::myers::kernel {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr unsigned kFull = 0xffffffffu;
constexpr u64 kAllZeroDeltas = 0xaaaaaaaaaaaaaaaaull;  // every row's field 2: delta 0
constexpr u64 kAllPlusOne = ~u64(0);                   // every row's field 3: delta +1

struct DevJob {
  std::int64_t x_off, x_len, y_off, y_len;
  std::int64_t words, stripes, stripe_base;  // words_of(x_len), ceil(words / 32W), first ticket
  std::int64_t slot_off, out_off;            // slots: (stripes - 1) × ceil(y_len / 32)
  int reversed;
};

#if DPGPU_MYERS_CPU_EMULATION  // test_myers_kernel_on_cpu.cpp: one warp at a time, plain C++
inline u64 load_relaxed(const u64* p) { return *p; }
inline void store_relaxed(u64* p, u64 v) { *p = v; }
inline int popcount64(u64 v) { return __builtin_popcountll(v); }
#else
__device__ __forceinline__ int popcount64(u64 v) { return __popcll(v); }
__device__ __forceinline__ u64 load_relaxed(const u64* p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ void store_relaxed(u64* p, u64 v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v));
}
#endif

// This lane's masks, from word word0 on (only this lane reads them: no barrier needed).
template <int W>
__device__ void build_masks(const DevJob& job, std::int64_t word0,
                            const std::uint8_t* __restrict__ x, int sigma, u64* masks, int lane) {
  for (int c = 0; c < sigma; ++c)
#pragma unroll
    for (int j = 0; j < W; ++j) masks[(c * W + j) * 32 + lane] = 0;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const std::int64_t base = (word0 + j) * 64;
    const std::int64_t bits = job.x_len - base < 64 ? job.x_len - base : 64;
    for (std::int64_t i = 0; i < bits; ++i) {
      const std::int64_t pos = base + i;
      const int c = x[job.reversed ? job.x_off + job.x_len - 1 - pos : job.x_off + pos];
      if (c < sigma) masks[(c * W + j) * 32 + lane] |= u64(1) << i;
    }
  }
}

template <int W>
struct Stripe {
  const DevJob& job;
  const u64* masks;  // this warp's: [symbol][W][32 lanes]
  u64* my_slots;     // nullptr for the job's last stripe
  int lane;
  u64 pv[W], mv[W];
  int carry = 0;             // delta leaving this lane's words in its last row
  u64 acc = kAllZeroDeltas;  // lane 31: the current group's deltas

  __device__ __forceinline__ void load_masks(u32 ypair, int k, u64 (&mk)[W]) const {
    const u32 yp = __shfl_sync(kFull, ypair, (k - lane) & 31);
    const u32 sym = k >= lane ? (yp & 0xffffu) : (yp >> 16);
#pragma unroll
    for (int j = 0; j < W; ++j) mk[j] = masks[(sym * W + j) * 32 + lane];
  }

  // Steps r0 .. r0 + 31; lane l does row r0 + k - l at step k. ypair in lane i: the symbol
  // of row r0 + i (low half) and of row r0 - 32 + i (high half). cw: the deltas entering
  // rows r0 .. r0 + 31 from the stripe below (lane 0 reads field k).
  template <bool Checked>
  __device__ __forceinline__ void group(std::int64_t r0, u32 ypair, u64 cw) {
    const std::int64_t rows = job.y_len;
    u64 mk[W];
    load_masks(ypair, 0, mk);
#pragma unroll
    for (int k = 0; k < 32; ++k) {
      const int up = __shfl_up_sync(kFull, carry, 1);
      u64 next[W];
      if (k < 31) load_masks(ypair, k + 1, next);
      const std::int64_t r = r0 + k - lane;
      if (!Checked || (r >= 0 && r < rows)) {
        int h = lane == 0 ? int((cw >> (2 * k)) & 3u) - 2 : up;
#pragma unroll
        for (int j = 0; j < W; ++j) h = block_step(pv[j], mv[j], mk[j], h);
        carry = h;
        if (lane == 31 && my_slots) {
          const int f = 2 * int(r & 31);
          acc = (acc & ~(u64(3) << f)) | (u64(h + 2) << f);
          if ((r & 31) == 31 || r == rows - 1) {
            store_relaxed(my_slots + (r >> 5), acc);
            acc = kAllZeroDeltas;
          }
        }
      }
      if (k < 31) {
#pragma unroll
        for (int j = 0; j < W; ++j) mk[j] = next[j];
      }
    }
  }
};

template <int W>
__device__ void run_stripe(const DevJob& job, std::int64_t s, const std::uint8_t* __restrict__ x,
                           const std::uint8_t* __restrict__ y, int sigma, u64* slots, u64* out_pv,
                           u64* out_mv, unsigned long long* dist, u64* masks, int lane) {
  const std::int64_t word0 = s * 32 * W + std::int64_t(lane) * W;
  build_masks<W>(job, word0, x, sigma, masks, lane);
  const std::int64_t rows = job.y_len, groups = (rows + 31) / 32;
  const u64* pred = s > 0 ? slots + job.slot_off + (s - 1) * groups : nullptr;
  Stripe<W> st{job, masks, s + 1 < job.stripes ? slots + job.slot_off + s * groups : nullptr, lane};
#pragma unroll
  for (int j = 0; j < W; ++j) st.pv[j] = ~u64(0), st.mv[j] = 0;  // D[i][0] = i
  auto symbol = [&](std::int64_t r) -> u32 {
    return r < rows ? y[job.reversed ? job.y_off + rows - 1 - r : job.y_off + r] : 0u;
  };
  // Group g: steps 32g .. 32g + 31 (one more group drains the pipeline). The next group's
  // slot and symbols are loaded one group ahead.
  const std::int64_t step_groups = (rows + 31 + 31) / 32;
  u64 slot_next = pred ? load_relaxed(pred) : kAllPlusOne;
  u32 sym_next = symbol(lane), sym_prev = 0;
  for (std::int64_t g = 0; g < step_groups; ++g) {
    const std::int64_t r0 = 32 * g;
    u64 cw = slot_next;
    const u32 sym = sym_next;
    if (pred && r0 < rows)
      while (cw == 0) cw = load_relaxed(pred + g);
    if (r0 + 32 < rows) {
      if (pred) slot_next = load_relaxed(pred + g + 1);
      sym_next = symbol(r0 + 32 + lane);
    }
    const u32 ypair = sym | (sym_prev << 16);
    if (g >= 1 && r0 + 31 < rows)
      st.template group<false>(r0, ypair, cw);
    else
      st.template group<true>(r0, ypair, cw);
    sym_prev = sym;
  }
  // The stripe's share of the distance: +1 per Pv bit, -1 per Mv bit below x_len, summed
  // over the warp and added to dist (which starts at y_len); the column too where asked.
  int sum = 0;
#pragma unroll
  for (int j = 0; j < W; ++j)
    if (word0 + j < job.words) {
      const std::int64_t bits = job.x_len - (word0 + j) * 64;
      const u64 valid = bits >= 64 ? ~u64(0) : (u64(1) << bits) - 1;
      sum += popcount64(st.pv[j] & valid) - popcount64(st.mv[j] & valid);
      if (out_pv) {
        out_pv[job.out_off + word0 + j] = st.pv[j];
        out_mv[job.out_off + word0 + j] = st.mv[j];
      }
    }
  for (int o = 16; o > 0; o /= 2) sum += __shfl_sync(kFull, sum, (lane + o) & 31);
  if (lane == 0 && dist) atomicAdd(dist, (unsigned long long)(long long)sum);
}

// Persistent warps take stripes by ticket until none are left. `smem`: the block's masks.
template <int W>
__device__ void pass_body(const DevJob* __restrict__ jobs, int njobs, std::int64_t total_stripes,
                          const std::uint8_t* __restrict__ x, const std::uint8_t* __restrict__ y,
                          int sigma, u64* slots, unsigned long long* ticket, u64* out_pv,
                          u64* out_mv, unsigned long long* dist, u64* smem) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  u64* masks = smem + std::size_t(warp) * sigma * W * 32;
  for (;;) {
    long long t = 0;
    if (lane == 0) t = (long long)atomicAdd(ticket, 1ull);
    t = __shfl_sync(kFull, int(t), 0);  // tickets stay below 2^31: checked on the host
    if (t >= total_stripes) return;
    int lo = 0, hi = njobs - 1;  // the last job whose first ticket is <= t
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (jobs[mid].stripe_base <= t)
        lo = mid;
      else
        hi = mid - 1;
    }
    const DevJob job = jobs[lo];
    run_stripe<W>(job, t - job.stripe_base, x, y, sigma, slots, out_pv, out_mv,
                  dist ? dist + lo : nullptr, masks, lane);
    __syncwarp();
  }
}

#if !DPGPU_MYERS_CPU_EMULATION
template <int W>
__global__ void pass(const DevJob* __restrict__ jobs, int njobs, std::int64_t total_stripes,
                     const std::uint8_t* __restrict__ x, const std::uint8_t* __restrict__ y,
                     int sigma, u64* slots, unsigned long long* ticket, u64* out_pv, u64* out_mv,
                     unsigned long long* dist) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  pass_body<W>(jobs, njobs, total_stripes, x, y, sigma, slots, ticket, out_pv, out_mv, dist,
               reinterpret_cast<u64*>(smem_bytes));
}
#endif

}  // namespace dpgpu::myers::kernel
