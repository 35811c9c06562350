// bitlcs_kernel.cuh — the bit-parallel LCS pass on the GPU.
//
// Work unit: a stripe of 32·W consecutive 64-bit words of one job's V, owned by one warp
// (lane l holds words l·W .. l·W + W - 1 of the stripe in registers, its match masks in
// shared memory). The stripe walks all rows of its job as a systolic array: lane l handles
// row t - l at step t, so the carry out of lane l's words for a row is exactly what lane l+1
// needs one step later (one shuffle, which also carries the row's symbol). Lane 0 takes the
// row's symbol from y and its carry-in from the stripe below; lane 31's carry-outs are packed
// 32 rows to a word and published for the stripe above, each word tagged with its group
// number in the same 64-bit store, so a reader needs no fence: it spins until the tag is right.
// Stripes of all jobs are handed out by one atomic ticket in job-then-stripe order; a stripe
// waits only for its predecessor, which holds an earlier ticket and is already running, so
// any grid size is deadlock-free and the stripes advance as a diagonal wavefront.
#pragma once
#include <cstdint>

namespace dpgpu::bitlcs::kernel {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr unsigned kFull = 0xffffffffu;

enum JobFlags : int { kReversed = 1, kStoreRows = 2 };

struct DevJob {
  std::int64_t x_off, x_len, y_off, y_len;
  std::int64_t words, stripes, stripe_base;  // stripes: ceil(words / (32 W)); base: first ticket
  std::int64_t slot_off, out_off;            // slots: (stripes - 1) × groups words, groups = ceil(y_len/32)
  int flags;
};

__device__ __forceinline__ u64 load_relaxed(const u64* p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(u64* p, u64 v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// a + b + c with c in {0, 1}; c becomes the carry out. Four instructions: the carry flag is
// set from c, then two add-with-carry and one to read the flag.
__device__ __forceinline__ u64 add_carry(u64 a, u64 b, u32& c) {
  u32 lo, hi;
  asm("{\n\t.reg .u32 t;\n\t"
      "add.cc.u32 t, %2, 0xffffffff;\n\t"
      "addc.cc.u32 %0, %3, %5;\n\t"
      "addc.cc.u32 %1, %4, %6;\n\t"
      "addc.u32 %2, 0, 0;\n\t}"
      : "=r"(lo), "=r"(hi), "+r"(c)
      : "r"(u32(a)), "r"(u32(a >> 32)), "r"(u32(b)), "r"(u32(b >> 32)));
  return (u64(hi) << 32) | lo;
}

template <int W, bool StoreRows>
struct Stripe {
  const DevJob& job;
  const u64* masks;  // this warp's: [symbol][W][32 lanes]
  u64* out;
  u64* my_slots;     // nullptr for the job's last stripe
  std::int64_t word0;  // job word of this lane's first word
  int lane;
  u64 v[W];
  u32 packet = 0;  // (symbol << 1) | carry-out of this lane's last row
  u32 acc = 0;     // lane 31: carry-outs of the current 32-row group

  // Steps r0 .. r0 + 31 (r0 a multiple of 32). `lane0` in lane k: row r0 + k's symbol and
  // carry-in for lane 0. Checked: some (lane, step) pairs fall outside [0, y_len).
  template <bool Checked>
  __device__ __forceinline__ void group(std::int64_t r0, u32 lane0) {
    const std::int64_t rows = job.y_len;
#pragma unroll
    for (int k = 0; k < 32; ++k) {
      const u32 up = __shfl_up_sync(kFull, packet, 1);
      const u32 first = __shfl_sync(kFull, lane0, k);
      const u32 in = lane == 0 ? first : up;
      const std::int64_t r = r0 + k - lane;
      if (!Checked || (r >= 0 && r < rows)) {
        u32 c = in & 1;
        const u32 sym = in >> 1;
#pragma unroll
        for (int j = 0; j < W; ++j) {
          const u64 m = masks[(sym * W + j) * 32 + lane];
          const u64 sum = add_carry(v[j], v[j] & m, c);
          v[j] = sum | (v[j] & ~m);
        }
        packet = (sym << 1) | c;
        if constexpr (StoreRows) {
#pragma unroll
          for (int j = 0; j < W; ++j)
            if (word0 + j < job.words) out[job.out_off + r * job.words + word0 + j] = v[j];
        }
        if (lane == 31 && my_slots) {
          const int bit = int(r & 31);
          acc |= c << bit;
          if (bit == 31 || r == rows - 1) {
            store_relaxed(my_slots + (r >> 5), (u64((r >> 5) + 1) << 32) | acc);
            acc = 0;
          }
        }
      }
    }
  }
};

template <int W, bool StoreRows>
__device__ void run_stripe(const DevJob& job, std::int64_t s, const std::uint8_t* __restrict__ x,
                           const std::uint8_t* __restrict__ y, int sigma, u64* slots, u64* out, u64* masks,
                           int lane) {
  const std::int64_t word0 = s * 32 * W + std::int64_t(lane) * W;
  const bool reversed = job.flags & kReversed;
  // Match masks of this lane's words (only this lane reads them: no barrier needed).
  for (int c = 0; c < sigma; ++c)
#pragma unroll
    for (int j = 0; j < W; ++j) masks[(c * W + j) * 32 + lane] = 0;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const std::int64_t base = (word0 + j) * 64;
    const std::int64_t bits = job.x_len - base < 64 ? job.x_len - base : 64;
    for (std::int64_t i = 0; i < bits; ++i) {
      const std::int64_t pos = base + i;
      const int c = x[reversed ? job.x_off + job.x_len - 1 - pos : job.x_off + pos];
      if (c < sigma) masks[(c * W + j) * 32 + lane] |= u64{1} << i;
    }
  }
  __syncwarp();

  const std::int64_t rows = job.y_len, groups = (rows + 31) / 32;
  const u64* pred = s > 0 ? slots + job.slot_off + (s - 1) * groups : nullptr;
  Stripe<W, StoreRows> st{job, masks, out, s + 1 < job.stripes ? slots + job.slot_off + s * groups : nullptr, word0,
                          lane};
#pragma unroll
  for (int j = 0; j < W; ++j) st.v[j] = ~u64{0};
  auto symbol = [&](std::int64_t r) -> u32 {
    return r < rows ? y[reversed ? job.y_off + rows - 1 - r : job.y_off + r] : 0u;
  };

  // Group g covers steps 32g .. 32g + 31; lane 0 reads rows 32g .. 32g + 31 then. The next
  // group's carry word and symbols are loaded one group ahead.
  const std::int64_t step_groups = (rows + 31 + 31) / 32;
  u64 slot_next = pred ? load_relaxed(pred) : 0;
  u32 sym_next = symbol(lane);
  for (std::int64_t g = 0; g < step_groups; ++g) {
    const std::int64_t r0 = 32 * g;
    u64 slot = slot_next;
    const u32 sym = sym_next;
    if (pred && r0 < rows)
      while (u32(slot >> 32) != u32(g + 1)) slot = load_relaxed(pred + g);
    if (r0 + 32 < rows) {
      if (pred) slot_next = load_relaxed(pred + g + 1);
      sym_next = symbol(r0 + 32 + lane);
    }
    const u32 lane0 = (sym << 1) | ((u32(slot) >> lane) & 1u);
    if (g >= 1 && r0 + 31 < rows)
      st.template group<false>(r0, lane0);
    else
      st.template group<true>(r0, lane0);
  }
  if constexpr (!StoreRows) {
#pragma unroll
    for (int j = 0; j < W; ++j)
      if (word0 + j < job.words) out[job.out_off + word0 + j] = st.v[j];
  }
}

// Persistent warps take stripes by ticket until none are left.
template <int W>
__global__ void pass(const DevJob* __restrict__ jobs, int njobs, std::int64_t total_stripes,
                     const std::uint8_t* __restrict__ x, const std::uint8_t* __restrict__ y, int sigma, u64* slots,
                     unsigned long long* ticket, u64* out) {
  extern __shared__ u64 smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  u64* masks = smem + std::size_t(warp) * sigma * W * 32;
  for (;;) {
    unsigned long long t = 0;
    if (lane == 0) t = atomicAdd(ticket, 1ull);
    t = __shfl_sync(kFull, t, 0);
    if (t >= static_cast<unsigned long long>(total_stripes)) return;
    int lo = 0, hi = njobs - 1;  // the last job whose first ticket is <= t
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (jobs[mid].stripe_base <= std::int64_t(t)) lo = mid;
      else hi = mid - 1;
    }
    const DevJob job = jobs[lo];
    const std::int64_t s = std::int64_t(t) - job.stripe_base;
    if (job.flags & kStoreRows)
      run_stripe<W, true>(job, s, x, y, sigma, slots, out, masks, lane);
    else
      run_stripe<W, false>(job, s, x, y, sigma, slots, out, masks, lane);
    __syncwarp();
  }
}

}  // namespace dpgpu::bitlcs::kernel
