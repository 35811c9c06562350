// factoradic.hpp — positions of gpu.ivm's search space and the work units stolen between
// explorers (paper 004, Sect. 3.1). City 0 is fixed first; the m = n - 1 other cities are
// permuted, so a leaf is a number in [0, m!) written in the factorial number system:
//   pos = sum_j D[j] * (m-1-j)!,   D[j] in [0, m-1-j]   (D[m-1] is always 0).
// A node at depth k (k cities after city 0, digits D[0..k-1]) owns the leaves
// [P, P + (m-k)!) with P = its digits followed by zeros. 64-bit arithmetic: m <= 20
// (20! < 2^64 < 21!), hence n <= kIvmMaxCities.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace dpgpu::backtracking {

inline constexpr int kIvmMaxFree = 20;                 // m = n - 1
inline constexpr int kIvmMaxCities = kIvmMaxFree + 1;  // n

// k! for 0 <= k <= 20.
BT_HD std::uint64_t factorial(int k) {
  std::uint64_t f = 1;
  for (int i = 2; i <= k; ++i) f *= std::uint64_t(i);
  return f;
}

// pos -> digits D[0..m-1]; pos < m!. Digit j has radix m - j: peel from the least significant.
BT_HD void to_factoradic(std::uint64_t pos, int m, std::uint8_t* digits) {
  for (int i = 0; i < m; ++i) {  // i = m-1-j: weight i!, radix i+1
    const std::uint64_t radix = std::uint64_t(i) + 1;
    digits[m - 1 - i] = static_cast<std::uint8_t>(pos % radix);
    pos /= radix;
  }
}

// digits -> pos (Horner over the mixed radices).
BT_HD std::uint64_t from_factoradic(const std::uint8_t* digits, int m) {
  std::uint64_t pos = 0;
  for (int j = 0; j < m; ++j) pos = pos * std::uint64_t(m - j) + digits[j];
  return pos;
}

// What is left of an explorer's interval [pos, end) (pos may have run past end).
BT_HD std::uint64_t interval_length(std::uint64_t pos, std::uint64_t end) {
  return pos < end ? end - pos : 0;
}

// stealWork: the thief takes the right half [split, end), the victim keeps [pos, split).
// The victim keeps the larger half when the length is odd (it is already inside it).
BT_HD std::uint64_t steal_split(std::uint64_t pos, std::uint64_t end) {
  return end - interval_length(pos, end) / 2;
}

// The initial partition of [0, total) over `parts` explorers: part t is [begin(t), begin(t+1)).
// Exact (128-bit product), so the parts tile [0, total) with no gap or overlap.
inline std::uint64_t partition_begin(std::uint64_t total, std::uint64_t parts, std::uint64_t t) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(total) * t) / parts);
}

}  // namespace dpgpu::backtracking
