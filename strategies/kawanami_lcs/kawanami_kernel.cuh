// kawanami_kernel.cuh — the bit-parallel LCS of Crochemore et al. (2001) as Kawanami and
// Fujimoto (2012) put it on the GPU: per symbol of the row string, the row vector V becomes
// (V + (V & M)) | (V & ~M). The bitwise operators are embarrassingly parallel over words;
// the sum is the part with little parallelism, done here as a carry-lookahead: each thread
// adds its K consecutive words and reports generate / propagate, the block combines those
// by two levels of ballots (in a warp, then over the warps), and each thread redoes its sum
// with its carry-in. One block, one __syncthreads per row.
#pragma once
#include <cstdint>

namespace dpgpu::kawanami::kernel {

// Carry into each of 32 lanes, given each lane's generate and propagate bits (lane 0 takes
// none), and whether a carry leaves lane 31: the carry-ins of the addition G + (G | P).
__device__ inline void lookahead(unsigned g, unsigned p, unsigned& carry_in, bool& carry_out) {
  const unsigned long long a = (unsigned long long)(g | p), b = g;
  const unsigned long long sum = a + b;
  carry_in = unsigned((sum ^ a ^ b) & 0xffffffffull);
  carry_out = (sum >> 32) != 0;
}

// masks[code * words + w]: bit i of word w set where x[32 w + i] has symbol `code`; the
// last code (sigma) is all zeros, for row symbols absent from x. zeros: the LCS length out.
template <int K>
__global__ void __launch_bounds__(1024)
    rows(const std::uint32_t* __restrict__ masks, int words, std::int64_t bits,
         const std::uint8_t* __restrict__ y_codes, std::int64_t m,
         unsigned long long* __restrict__ zeros) {
  __shared__ unsigned warp_g[2][32], warp_p[2][32];
  const int t = int(threadIdx.x), lane = t & 31, warp = t >> 5, nwarps = int(blockDim.x) >> 5;
  const int w0 = t * K;
  std::uint32_t v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = 0xffffffffu;

  for (std::int64_t r = 0; r < m; ++r) {
    const std::uint32_t* mr = masks + std::int64_t(y_codes[r]) * words;
    std::uint32_t mk[K], x[K];
    bool g = false,
         p = true;  // this thread's run of words: carry out with none in; passes one through
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int w = w0 + k;
      mk[k] = w < words ? mr[w] : 0u;
      x[k] = v[k] & mk[k];
      const std::uint32_t s = v[k] + x[k];
      const bool gk = s < v[k], pk = s == 0xffffffffu;
      g = gk || (pk && g);
      p = p && pk;
    }
    const unsigned G = __ballot_sync(0xffffffffu, g), P = __ballot_sync(0xffffffffu, p);
    unsigned lane_in;
    bool warp_out;
    lookahead(G, P, lane_in, warp_out);
    const int buf = int(r & 1);
    if (lane == 0) warp_g[buf][warp] = warp_out, warp_p[buf][warp] = P == 0xffffffffu;
    __syncthreads();
    // The same lookahead over the warps (every warp computes it: no second barrier).
    const bool wg = lane < nwarps && warp_g[buf][lane], wp = lane < nwarps && warp_p[buf][lane];
    unsigned warp_in;
    bool block_out;
    lookahead(__ballot_sync(0xffffffffu, wg), __ballot_sync(0xffffffffu, wp), warp_in, block_out);
    const bool from_below_warp = (warp_in >> warp) & 1u;
    // Carry into this thread: from a lane below in its warp, or into its warp passed up to it.
    const unsigned below = lane == 0 ? 0u : (1u << lane) - 1u;
    bool c = ((lane_in >> lane) & 1u) || (from_below_warp && (P & below) == below);
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::uint32_t s = v[k] + x[k] + (c ? 1u : 0u);
      c = c ? s <= v[k] : s < v[k];
      v[k] = s | (v[k] & ~mk[k]);
    }
  }
  unsigned long long z = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const std::int64_t first = std::int64_t(w0 + k) * 32;
    if (first >= bits) break;
    const int valid = bits - first >= 32 ? 32 : int(bits - first);
    const std::uint32_t keep = valid == 32 ? 0xffffffffu : ((1u << valid) - 1u);
    z += unsigned(__popc(~v[k] & keep));
  }
  atomicAdd(zeros, z);
}

}  // namespace dpgpu::kawanami::kernel
