// lcs_thread_kernel.cuh — batched LCS lengths, one pair per thread: the bit-vector LCS
// (Allison & Dix 1986; Crochemore et al. 2001; Hyyrö 2004) over W words in registers,
//   V <- (V + (V & M[c])) | (V & ~M[c]),   the addition's carry passed from word to word,
// masks in shared memory laid out as myers_thread_kernel.cuh's. After all of b, the zero
// bits of V below |a| count the LCS. Same classes of W (1, 2, 4, 8, 16) as the edit kernel.
#pragma once
#include <cstdint>

namespace dpgpu::myers::lcs_thread_kernel {

using u64 = std::uint64_t;

struct PairJob {
  std::int64_t x_off, y_off;
  std::int32_t x_len, y_len;  // 1 <= x_len <= 64 W
  std::int64_t index;
};

#if DPGPU_MYERS_CPU_EMULATION
inline int popcount_lcs(u64 v) { return __builtin_popcountll(v); }
#define DPGPU_LCS_DEVICE inline
#else
#define DPGPU_LCS_DEVICE __device__ __forceinline__
DPGPU_LCS_DEVICE int popcount_lcs(u64 v) { return __popcll(v); }
#endif

// a + b + carry (carry in {0, 1}); carry becomes the carry out.
DPGPU_LCS_DEVICE u64 add_with_carry(u64 a, u64 b, u64& carry) {
  const u64 s = a + b;
  const u64 t = s + carry;
  carry = u64(s < a) | u64(t < s);
  return t;
}

template <int W>
DPGPU_LCS_DEVICE long long lcs_one_pair(const PairJob& p, const std::uint8_t* __restrict__ x,
                                        const std::uint8_t* __restrict__ y, int sigma, u64* peq,
                                        int stride) {
  for (int c = 0; c < sigma; ++c)
#pragma unroll
    for (int j = 0; j < W; ++j) peq[(c * W + j) * stride] = 0;
  for (int i = 0; i < p.x_len; ++i) {
    const int c = x[p.x_off + i];
    if (c < sigma) peq[(c * W + (i >> 6)) * stride] |= u64(1) << (i & 63);
  }
  u64 v[W];
#pragma unroll
  for (int j = 0; j < W; ++j) v[j] = ~u64(0);
  const std::uint8_t* yr = y + p.y_off;
  for (int r = 0; r < p.y_len; ++r) {
    const u64* m = peq + yr[r] * W * stride;
    u64 carry = 0;
#pragma unroll
    for (int j = 0; j < W; ++j) {
      const u64 mk = m[j * stride];
      v[j] = add_with_carry(v[j], v[j] & mk, carry) | (v[j] & ~mk);
    }
  }
  long long zeros = 0;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const int bits = p.x_len - 64 * j;
    if (bits <= 0) break;
    const u64 valid = bits >= 64 ? ~u64(0) : (u64(1) << bits) - 1;
    zeros += popcount_lcs(~v[j] & valid);
  }
  return zeros;
}

#if !DPGPU_MYERS_CPU_EMULATION
template <int W>
__global__ void lcs_per_thread(const PairJob* __restrict__ jobs, int njobs,
                               const std::uint8_t* __restrict__ x,
                               const std::uint8_t* __restrict__ y, int sigma, long long* out) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  u64* peq = reinterpret_cast<u64*>(smem_bytes) + threadIdx.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < njobs; k += gridDim.x * blockDim.x) {
    const PairJob p = jobs[k];
    out[p.index] = lcs_one_pair<W>(p, x, y, sigma, peq, blockDim.x);
  }
}
#endif

}  // namespace dpgpu::myers::lcs_thread_kernel
