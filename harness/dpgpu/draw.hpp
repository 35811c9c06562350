// draw.hpp — unbiased bounded random draws with a fixed definition, for every generator.
// std::uniform_int_distribution is implementation-defined, so generated instances would
// differ between standard libraries; std::mt19937_64's output is fixed by the standard, and
// these draws (Lemire's multiply-and-reject) are fixed by this code.
#pragma once
#include <cstdint>
#include <random>

namespace dpgpu {

// A uniform integer in [0, bound); bound must be > 0.
inline std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t bound) {
  using u128 = unsigned __int128;
  u128 product = u128(rng()) * bound;
  auto low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    while (low < threshold) {
      product = u128(rng()) * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

// A uniform integer in [lo, hi]; lo <= hi, and hi - lo < 2^63.
inline std::int64_t draw_between(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(draw_below(rng, static_cast<std::uint64_t>(hi - lo) + 1));
}

}  // namespace dpgpu
