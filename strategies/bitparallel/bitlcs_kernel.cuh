// bitlcs_kernel.cuh — the bit-parallel LCS pass on the GPU.
//
// Work unit: a stripe of 32·W consecutive lane words (32 or 64 bits) of one job's V, owned
// by one warp (lane l holds words l·W .. l·W + W - 1 of the stripe in registers, their match
// masks in shared memory). The stripe walks all rows of its job as a systolic array: lane l
// handles row t - l at step t, so the carry out of lane l's words for a row is exactly what
// lane l+1 needs one step later (one shuffle). Each lane's row symbol comes from a second
// shuffle of the group's symbols, which does not wait for the carry, so the mask load is off
// the carry's path. Lane 0 takes its carry-in from the stripe below; lane 31's carry-outs
// are packed 32 rows to a word and published for the stripe above, each word tagged with its
// group number in the same 64-bit store, so a reader needs no fence: it spins until the tag
// is right. Stripes of all jobs are handed out by one atomic ticket in job-then-stripe order;
// a stripe waits only for its predecessor, which holds an earlier ticket and is already
// running, so any grid size is deadlock-free and the stripes advance as a diagonal wavefront.
#pragma once
#include <cstdint>

namespace dpgpu::bitlcs::kernel {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
constexpr unsigned kFull = 0xffffffffu;

enum JobFlags : int { kReversed = 1, kStoreRows = 2 };

struct DevJob {
  std::int64_t x_off, x_len, y_off, y_len;
  std::int64_t words;                 // lane words: ceil(x_len / 64) × (64 / lane bits)
  std::int64_t stripes, stripe_base;  // stripes: ceil(words / (32 W)); base: first ticket
  std::int64_t slot_off, out_off;     // slots: (stripes - 1) × groups, groups = ceil(y_len/32);
                                      // out_off in 64-bit words
  int flags;
  int spin_ns;  // > 0: a waiting warp sleeps this long between polls of the carry word
  // > 0: each stripe's carry words are a ring of `ring` slots (a power of two) instead of one
  // slot per group, and at progress_off + s stripe s publishes how many groups it has taken
  // from stripe s - 1's ring, so that stripe s - 1 never overwrites a word not yet taken. Only
  // when every stripe of the batch is resident (the host's rule): else a producer could wait
  // for a consumer that never starts.
  std::int64_t ring, progress_off;
};

#if DPGPU_BITLCS_CPU_EMULATION  // test_bitlcs_kernel_on_cpu.cpp: one warp at a time, plain C++
inline u64 load_relaxed(const u64* p) { return *p; }
inline void store_relaxed(u64* p, u64 v) { *p = v; }
inline u64 load_acquire(const u64* p) { return *p; }
inline void store_release(u64* p, u64 v) { *p = v; }
inline void backoff(int) {}
inline u32 shift_in(u32 acc, u32 c) { return (acc >> 1) | (c << 31); }
template <class L>
inline L add_carry(L a, L b, u32& c) {
  const unsigned __int128 sum = (unsigned __int128)a + b + c;
  c = u32(sum >> (8 * sizeof(L)));
  return L(sum);
}
#else
__device__ __forceinline__ u64 load_relaxed(const u64* p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ void store_relaxed(u64* p, u64 v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v));
}
// The ring's progress words: the consumer's release orders its read of a slot before the
// count that lets the producer overwrite it; the producer's acquire orders the count before
// its overwrite.
__device__ __forceinline__ u64 load_acquire(const u64* p) {
  u64 v;
  asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(u64* p, u64 v) {
  asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
// Between two polls of a carry word not yet written: a warp that spins takes issue slots
// from the working warps of its SM sub-partition; asleep it does not (parameter spin_ns).
__device__ __forceinline__ void backoff(int ns) {
  if (ns > 0) __nanosleep(unsigned(ns));
}
// (c:acc) >> 1 with c in {0, 1}: acc shifted down, c into bit 31 (one SHF).
__device__ __forceinline__ u32 shift_in(u32 acc, u32 c) { return __funnelshift_r(acc, c, 1); }

// a + b + c with c in {0, 1}; c becomes the carry out: the carry flag is set from c, then
// add-with-carry over the halves and one instruction to read the flag.
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
__device__ __forceinline__ u32 add_carry(u32 a, u32 b, u32& c) {
  u32 sum;
  asm("{\n\t.reg .u32 t;\n\t"
      "add.cc.u32 t, %1, 0xffffffff;\n\t"
      "addc.cc.u32 %0, %2, %3;\n\t"
      "addc.u32 %1, 0, 0;\n\t}"
      : "=r"(sum), "+r"(c)
      : "r"(a), "r"(b));
  return sum;
}
#endif

// One warp's stripe. L: the lane word (u32 or u64; 64-bit words are two 32-bit halves in
// the instruction set either way, 32-bit words give twice the lanes for the same string).
// Ring: the carry words go to slot (group_base + group) & ring_mask of my_slots, tagged with
// that global group (the multi-GPU pass, bitlcs_window_kernel.cuh); otherwise to slot group.
template <class L, int W, bool StoreRows, bool Ring = false>
struct Stripe {
  static constexpr int kBits = 8 * sizeof(L);
  const DevJob& job;
  const L* masks;      // this warp's: [symbol][W][32 lanes]
  L* out;              // the batch output as lane words
  u64* my_slots;       // nullptr for the job's last stripe
  std::int64_t word0;  // job lane-word of this lane's first word
  int lane;
  L v[W];
  u32 carry = 0;                               // carry out of this lane's last row
  u32 acc = 0;                                 // lane 31: its latest carry-outs, latest in bit 31
  std::int64_t group_base = 0, ring_mask = 0;  // Ring only

  // Steps r0 .. r0 + 31 (r0 a multiple of 32); lane l does row r0 + k - l at step k.
  // ypair in lane i: symbol of row r0 + i (low half) and of row r0 - 32 + i (high half), so
  // each lane's symbol is one shuffle that does not wait for the carry. cbits: the carry-ins
  // of rows r0 .. r0 + 31 from the stripe below (lane 0 reads bit k). Checked: some (lane,
  // step) pairs fall outside [0, y_len).
  template <bool Checked>
  __device__ __forceinline__ void group(std::int64_t r0, u32 ypair, u32 cbits) {
    const std::int64_t rows = job.y_len;
    const std::int64_t words = job.words;
    // The symbol and masks of step k + 1 are fetched during step k, so that the carry's path
    // from one step to the next is the shuffle and the add chain alone. Symbols outside the
    // rows are 0 (a valid code), so these loads never leave the masks.
    // Both halves of ypair scaled once per group to the symbol's first mask word (sym·W·32 <
    // 2^15: no carry between the halves), so a step's mask address is one LEA off this lane's
    // masks; a shuffle's source lane is taken modulo 32 (CUDA Programming Guide, warp shuffle
    // functions), so the index needs no mask. 39 -> about 20 instructions per W = 1 step with
    // the carry word below (NOTES.md).
    ypair *= u32(W * 32);
    const L* ml = masks + lane;
    L mk[W];
    {
      const u32 yp = __shfl_sync(kFull, ypair, 0 - lane);
      const u32 sym = lane == 0 ? (yp & 0xffffu) : (yp >> 16);
#pragma unroll
      for (int j = 0; j < W; ++j) mk[j] = ml[sym + j * 32];
    }
#pragma unroll
    for (int k = 0; k < 32; ++k) {
      const u32 up = __shfl_up_sync(kFull, carry, 1);
      L next[W];
      if (k < 31) {
        const u32 yp = __shfl_sync(kFull, ypair, k + 1 - lane);
        const u32 sym = k + 1 >= lane ? (yp & 0xffffu) : (yp >> 16);
#pragma unroll
        for (int j = 0; j < W; ++j) next[j] = ml[sym + j * 32];
      }
      const std::int64_t r = r0 + k - lane;
      if (!Checked || (r >= 0 && r < rows)) {
        u32 c = lane == 0 ? (cbits >> k) & 1u : up;
#pragma unroll
        for (int j = 0; j < W; ++j) {
          const L sum = add_carry(v[j], L(v[j] & mk[j]), c);
          v[j] = sum | (v[j] & ~mk[j]);
        }
        carry = c;
        if constexpr (StoreRows) {
#pragma unroll
          for (int j = 0; j < W; ++j)
            if (word0 + j < words) out[job.out_off * (64 / kBits) + r * words + word0 + j] = v[j];
        }
        if constexpr (!Checked) {
          // Aligned group: lane 31 does row r0 - 31 + k; the word of group r0/32 - 1 is its
          // last 32 carry-outs at k = 30. Every lane shifts its carry in (one funnel shift; only
          // lane 31's acc is stored), so no step branches around lane 31's bookkeeping (it was
          // 19 of the 39 instructions of a W = 1 step in the SASS: a divergent path every step).
          acc = shift_in(acc, c);
          if (k == 30 && lane == 31 && my_slots) {
            const std::int64_t g = (r0 >> 5) - 1;
            if constexpr (Ring) {
              const std::int64_t gg = group_base + g;
              store_relaxed(my_slots + (gg & ring_mask), (u64(gg + 1) << 32) | acc);
            } else {
              store_relaxed(my_slots + g, (u64(g + 1) << 32) | acc);
            }
          }
        } else if (lane == 31 && my_slots) {
          // acc: lane 31's carry-outs, the latest in bit 31; a group's word is the last bit + 1
          // of them (fewer only for the job's last, partial group).
          const int bit = int(r & 31);
          acc = shift_in(acc, c);
          if (bit == 31 || r == rows - 1) {
            const u32 word = acc >> (31 - bit);
            if constexpr (Ring) {
              const std::int64_t gg = group_base + (r >> 5);
              store_relaxed(my_slots + (gg & ring_mask), (u64(gg + 1) << 32) | word);
            } else {
              store_relaxed(my_slots + (r >> 5), (u64((r >> 5) + 1) << 32) | word);
            }
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

// Match masks of this lane's words, from lane word word0 on (only this lane reads them: no
// barrier needed).
template <class L, int W>
__device__ void build_masks(const DevJob& job, std::int64_t word0,
                            const std::uint8_t* __restrict__ x, int sigma, L* masks, int lane) {
  constexpr int kBits = 8 * sizeof(L);
  const bool reversed = job.flags & kReversed;
  for (int c = 0; c < sigma; ++c)
#pragma unroll
    for (int j = 0; j < W; ++j) masks[(c * W + j) * 32 + lane] = 0;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const std::int64_t base = (word0 + j) * kBits;
    const std::int64_t bits = job.x_len - base < kBits ? job.x_len - base : kBits;
    for (std::int64_t i = 0; i < bits; ++i) {
      const std::int64_t pos = base + i;
      const int c = x[reversed ? job.x_off + job.x_len - 1 - pos : job.x_off + pos];
      if (c < sigma) masks[(c * W + j) * 32 + lane] |= L(1) << i;
    }
  }
  __syncwarp();
}

template <class L, int W, bool StoreRows>
__device__ void run_stripe(const DevJob& job, std::int64_t s, const std::uint8_t* __restrict__ x,
                           const std::uint8_t* __restrict__ y, int sigma, u64* slots, u64* out,
                           L* masks, int lane) {
  constexpr int kBits = 8 * sizeof(L);
  const std::int64_t word0 = s * 32 * W + std::int64_t(lane) * W;
  const bool reversed = job.flags & kReversed;
  build_masks<L, W>(job, word0, x, sigma, masks, lane);

  const std::int64_t rows = job.y_len, groups = (rows + 31) / 32;
  const bool ring = job.ring > 0;
  const std::int64_t per = ring ? job.ring : groups, mask = ring ? job.ring - 1 : ~std::int64_t(0);
  const u64* pred = s > 0 ? slots + job.slot_off + (s - 1) * per : nullptr;
  Stripe<L, W, StoreRows, true> st{job,
                                   masks,
                                   reinterpret_cast<L*>(out),
                                   s + 1 < job.stripes ? slots + job.slot_off + s * per : nullptr,
                                   word0,
                                   lane};
  st.ring_mask = mask;  // group_base 0: the slot of group g is g & mask, its tag g + 1
  u64* taken_mine = ring && pred ? slots + job.progress_off + s : nullptr;
  const u64* taken_next = ring && st.my_slots ? slots + job.progress_off + s + 1 : nullptr;
  std::int64_t seen = 0;  // groups the next stripe has taken from this one's ring, as last read
#pragma unroll
  for (int j = 0; j < W; ++j) st.v[j] = L(~L(0));
  auto symbol = [&](std::int64_t r) -> u32 {
    return r < rows ? y[reversed ? job.y_off + rows - 1 - r : job.y_off + r] : 0u;
  };

  // Group g: steps 32g .. 32g + 31. The next group's carry word and symbols are loaded one
  // group ahead.
  const std::int64_t step_groups = (rows + 31 + 31) / 32;
  u64 slot_next = pred ? load_relaxed(pred) : 0;
  u32 sym_next = symbol(lane), sym_prev = 0;
  for (std::int64_t g = 0; g < step_groups; ++g) {
    const std::int64_t r0 = 32 * g;
    u64 slot = slot_next;
    const u32 sym = sym_next;
    if (taken_next) {  // this group writes words up to group min(g, groups - 1) into the ring
      const std::int64_t need = (g < groups ? g : groups - 1) - job.ring + 1;
      while (seen < need)
        if ((seen = std::int64_t(load_acquire(taken_next))) < need) backoff(job.spin_ns);
    }
    if (pred && r0 < rows) {
      while (u32(slot >> 32) != u32(g + 1))
        backoff(job.spin_ns), slot = load_relaxed(pred + (g & mask));
      if (taken_mine && lane == 0) store_release(taken_mine, u64(g + 1));
    }
    if (r0 + 32 < rows) {
      if (pred) slot_next = load_relaxed(pred + ((g + 1) & mask));
      sym_next = symbol(r0 + 32 + lane);
    }
    const u32 ypair = sym | (sym_prev << 16);
    if (g >= 1 && r0 + 31 < rows)
      st.template group<false>(r0, ypair, u32(slot));
    else
      st.template group<true>(r0, ypair, u32(slot));
    sym_prev = sym;
  }
  if constexpr (!StoreRows) {
    L* o = reinterpret_cast<L*>(out) + job.out_off * (64 / kBits);
#pragma unroll
    for (int j = 0; j < W; ++j)
      if (word0 + j < job.words) o[word0 + j] = st.v[j];
  }
}

// Persistent warps take stripes by ticket until none are left. `smem`: the block's masks.
// AnyStore false: no job of the batch stores rows (the length, Hirschberg's levels), so the
// kernel has no row-storing path: at W = 4 that path took the kernel from 56 registers to 242
// (ptxas -v, sm_90), a quarter of the resident warps.
template <class L, int W, bool AnyStore>
__device__ void pass_body(const DevJob* __restrict__ jobs, int njobs, std::int64_t total_stripes,
                          const std::uint8_t* __restrict__ x, const std::uint8_t* __restrict__ y,
                          int sigma, u64* slots, unsigned long long* ticket, u64* out, L* smem) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  L* masks = smem + std::size_t(warp) * sigma * W * 32;
  for (;;) {
    int t = 0;  // tickets stay below 2^31: total_stripes is checked on the host
    if (lane == 0) t = int(atomicAdd(ticket, 1ull));
    t = __shfl_sync(kFull, t, 0);
    if (t >= total_stripes) return;
    int lo = 0, hi = njobs - 1;  // the last job whose first ticket is <= t
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (jobs[mid].stripe_base <= std::int64_t(t))
        lo = mid;
      else
        hi = mid - 1;
    }
    const DevJob job = jobs[lo];
    const std::int64_t s = std::int64_t(t) - job.stripe_base;
    if (AnyStore && (job.flags & kStoreRows))
      run_stripe<L, W, AnyStore>(job, s, x, y, sigma, slots, out, masks, lane);
    else
      run_stripe<L, W, false>(job, s, x, y, sigma, slots, out, masks, lane);
    __syncwarp();
  }
}

#if !DPGPU_BITLCS_CPU_EMULATION
template <class L, int W, bool AnyStore>
__global__ void pass(const DevJob* __restrict__ jobs, int njobs, std::int64_t total_stripes,
                     const std::uint8_t* __restrict__ x, const std::uint8_t* __restrict__ y,
                     int sigma, u64* slots, unsigned long long* ticket, u64* out) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  pass_body<L, W, AnyStore>(jobs, njobs, total_stripes, x, y, sigma, slots, ticket, out,
                            reinterpret_cast<L*>(smem_bytes));
}
#endif

}  // namespace dpgpu::bitlcs::kernel
