// saturating.hpp — byte and case counts that may not fit 64 bits stop at UINT64_MAX instead
// of wrapping around (a memory estimate that wraps would let a case run that cannot).
#pragma once
#include <cstdint>
#include <limits>

namespace dpgpu {

inline constexpr std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  return p > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                       : static_cast<std::uint64_t>(p);
}

inline constexpr std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a + b < a ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

}  // namespace dpgpu
