// bitlcs_window_kernel.cuh — one launch of the multi-GPU pass on one GPU: its run of stripes,
// each over its skewed window of rows (bitlcs_stripe_plan.hpp), continuing from the bit
// vector the previous launch left in `v`. The recurrence is the one-GPU kernel's Stripe;
// what differs is where a stripe starts (its window, its saved V) and where its carry words
// go: a ring per stripe, tagged by global group, and for the GPU's first stripe the import
// ring that the previous GPU's carry words are copied into before the launch.
#pragma once
#include "bitlcs_kernel.cuh"

namespace dpgpu::bitlcs::kernel {

struct WindowArgs {
  DevJob job;                // the whole pass (words, stripes, rows, reversed)
  std::int64_t stripe0 = 0;  // global index of this GPU's first stripe
  std::int64_t stripes = 0;  // this GPU's stripes
  std::int64_t row0 =
      0;  // r·R: global stripe s runs rows [row0 − s·skew, row0 + launch_rows − s·skew)
  std::int64_t launch_rows = 0;  // R
  std::int64_t skew = 0;         // D
  std::int64_t ring_mask = 0;    // K − 1
  const u64* import = nullptr;   // ring of the stripe before stripe0 (nullptr on the first GPU)
  u64* rings = nullptr;          // [local stripe][K]; the last one's is what the next GPU imports
  u64* v = nullptr;              // V of this GPU's stripes, lane words [local stripe][32 W]
  unsigned long long* ticket = nullptr;  // this launch's ticket counter (zero before it)
};

template <class L, int W>
__device__ void run_window(const WindowArgs& a, std::int64_t s, const std::uint8_t* __restrict__ x,
                           const std::uint8_t* __restrict__ y, int sigma, L* masks, int lane) {
  const DevJob& job = a.job;
  const std::int64_t gs = a.stripe0 + s;
  std::int64_t lo = a.row0 - gs * a.skew, hi = lo + a.launch_rows;
  lo = lo < 0 ? 0 : lo;
  hi = hi > job.y_len ? job.y_len : hi;
  if (lo >= hi) return;
  const std::int64_t word0 = gs * 32 * W + std::int64_t(lane) * W;
  build_masks<L, W>(job, word0, x, sigma, masks, lane);

  DevJob win = job;  // Stripe's row bounds are the window's
  win.y_len = hi - lo;
  const std::int64_t rows = win.y_len, gbase = lo >> 5, ring = a.ring_mask + 1;
  const u64* pred = s > 0 ? a.rings + (s - 1) * ring : a.import;
  Stripe<L, W, false, true> st{
      win, masks, nullptr, gs + 1 < job.stripes ? a.rings + s * ring : nullptr, word0, lane};
  st.group_base = gbase;
  st.ring_mask = a.ring_mask;
  L* saved = reinterpret_cast<L*>(a.v) + s * 32 * W + std::int64_t(lane) * W;
#pragma unroll
  for (int j = 0; j < W; ++j) st.v[j] = saved[j];
  const bool reversed = job.flags & kReversed;
  auto symbol = [&](std::int64_t r) -> u32 {  // r: row of the window
    return r < rows ? y[reversed ? job.y_off + job.y_len - 1 - (lo + r) : job.y_off + lo + r] : 0u;
  };
  auto slot_of = [&](std::int64_t g) { return pred + ((gbase + g) & a.ring_mask); };

  // As run_stripe: group g is steps 32g .. 32g + 31; the next group's carry word and symbols
  // are loaded one group ahead; a word is taken once its tag is its global group + 1.
  const std::int64_t step_groups = (rows + 31 + 31) / 32;
  u64 slot_next = pred ? load_relaxed(slot_of(0)) : 0;
  u32 sym_next = symbol(lane), sym_prev = 0;
  for (std::int64_t g = 0; g < step_groups; ++g) {
    const std::int64_t r0 = 32 * g;
    u64 slot = slot_next;
    const u32 sym = sym_next;
    if (pred && r0 < rows)
      while (u32(slot >> 32) != u32(gbase + g + 1))
        backoff(job.spin_ns), slot = load_relaxed(slot_of(g));
    if (r0 + 32 < rows) {
      if (pred) slot_next = load_relaxed(slot_of(g + 1));
      sym_next = symbol(r0 + 32 + lane);
    }
    const u32 ypair = sym | (sym_prev << 16);
    if (g >= 1 && r0 + 31 < rows)
      st.template group<false>(r0, ypair, u32(slot));
    else
      st.template group<true>(r0, ypair, u32(slot));
    sym_prev = sym;
  }
#pragma unroll
  for (int j = 0; j < W; ++j) saved[j] = st.v[j];
}

// Persistent warps take this GPU's stripes by ticket, in order, so a stripe's predecessor on
// this GPU is always resident (the import ring is complete before the launch).
template <class L, int W>
__device__ void window_body(const WindowArgs& a, const std::uint8_t* __restrict__ x,
                            const std::uint8_t* __restrict__ y, int sigma, L* smem) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  L* masks = smem + std::size_t(warp) * sigma * W * 32;
  for (;;) {
    int t = 0;
    if (lane == 0) t = int(atomicAdd(a.ticket, 1ull));
    t = __shfl_sync(kFull, t, 0);
    if (t >= a.stripes) return;
    run_window<L, W>(a, t, x, y, sigma, masks, lane);
    __syncwarp();
  }
}

#if !DPGPU_BITLCS_CPU_EMULATION
template <class L, int W>
__global__ void window_pass(WindowArgs a, const std::uint8_t* __restrict__ x,
                            const std::uint8_t* __restrict__ y, int sigma) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  window_body<L, W>(a, x, y, sigma, reinterpret_cast<L*>(smem_bytes));
}
#endif

}  // namespace dpgpu::bitlcs::kernel
