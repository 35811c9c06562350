// subset_rank.hpp — k-subsets of {0..63} ranked in the combinatorial number system
// (colexicographic order): for elements c_0 < c_1 < ... < c_{k-1},
//     rank(S) = C(c_0, 1) + C(c_1, 2) + ... + C(c_{k-1}, k).
// The k-subsets of {0..m-1} get exactly the ranks 0..C(m,k)-1, in the order of their bit
// masks as integers (for every m at once), so one Held-Karp layer — all subsets of one size —
// is a dense array, and consecutive ranks are consecutive masks (next_same_size).
// Header-only and usable from CUDA device code, so CPU and GPU solvers share one layout.
#pragma once
#include <bit>
#include <cstdint>

#if defined(__CUDACC__)
#define TSP_HOST_DEVICE __host__ __device__
#else
#define TSP_HOST_DEVICE
#endif

namespace tsp::subsets {

inline constexpr int kMaxElements = 64;  // bit masks are 64 bits

// Binomial coefficients C(n, k) for 0 <= n <= 64: all fit in uint64 (C(64, 32) < 1.9e18).
struct Binomials {
  std::uint64_t c[kMaxElements + 1][kMaxElements + 1] = {};

  constexpr Binomials() {
    for (int n = 0; n <= kMaxElements; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];  // c[n-1][n] is 0
    }
  }
  // C(n, k); 0 when k < 0 or k > n.
  TSP_HOST_DEVICE constexpr std::uint64_t operator()(int n, int k) const {
    return k < 0 || k > n ? 0 : c[n][k];
  }
};

// The host's table (a GPU solver copies it to device memory once).
inline constexpr Binomials kBinomials{};

TSP_HOST_DEVICE inline int count_elements(std::uint64_t mask) {
#if defined(__CUDA_ARCH__)
  return __popcll(mask);
#else
  return std::popcount(mask);
#endif
}

// The smallest element; mask != 0.
TSP_HOST_DEVICE inline int lowest_element(std::uint64_t mask) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(mask)) - 1;
#else
  return std::countr_zero(mask);
#endif
}

// How many elements of `mask` are smaller than `element`: its position when present.
TSP_HOST_DEVICE inline int position_of(std::uint64_t mask, int element) {
  return count_elements(mask & ((std::uint64_t{1} << element) - 1));
}

// The rank of `mask` among the subsets of its size.
TSP_HOST_DEVICE inline std::uint64_t rank(std::uint64_t mask, const Binomials& binom = kBinomials) {
  std::uint64_t r = 0;
  for (int i = 1; mask != 0; ++i, mask &= mask - 1) r += binom(lowest_element(mask), i);
  return r;
}

// The k-subset of rank r (r < C(64, k)); the inverse of rank() for subsets of size k.
TSP_HOST_DEVICE inline std::uint64_t unrank(int k, std::uint64_t r,
                                            const Binomials& binom = kBinomials) {
  if (k <= 0) return 0;
  // The largest element is the largest c with C(c, k) <= r; each next one is found below it.
  int c = k - 1;
  while (c + 1 < kMaxElements && binom(c + 1, k) <= r) ++c;
  std::uint64_t mask = 0;
  for (int i = k; i >= 1; --i) {
    while (binom(c, i) > r) --c;  // stops by c = i - 1, where C(i-1, i) = 0
    mask |= std::uint64_t{1} << c;
    r -= binom(c, i);
    --c;
  }
  return mask;
}

// The next mask with as many elements (Gosper's hack): the subset of rank + 1. mask != 0,
// and its highest element below 63 (the next subset must still fit in 64 bits).
TSP_HOST_DEVICE inline std::uint64_t next_same_size(std::uint64_t mask) {
  const std::uint64_t lowest = mask & (~mask + 1);
  const std::uint64_t ripple = mask + lowest;
  return (((ripple ^ mask) >> 2) / lowest) | ripple;
}

}  // namespace tsp::subsets
