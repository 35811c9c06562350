// kloetzli_config.hpp — gpu.kloetzli's parameters (each field one parameter of the
// registration in kloetzli_params.cpp), the rule they obey and what a solve allocates.
#pragma once
#include <cstdint>
#include <string>

namespace dpgpu::kloetzli {

struct KloetzliConfig {
  int tile = 256;  // side of a block's square sub-problem; also its threads (one per tile row)
};

// Why `c` is not a configuration the kernel has, naming the parameter, or "".
inline std::string why_invalid(const KloetzliConfig& c) {
  if (c.tile < 32 || c.tile > 1024 || c.tile % 32 != 0)
    return "'tile' must be a multiple of 32 in [32, 1024], got " + std::to_string(c.tile);
  return {};
}

// Tiles along a string of `len` symbols.
inline std::int64_t tiles_of(std::int64_t len, int tile) { return (len + tile - 1) / tile; }

// Device bytes of a solve over |a| = m rows and |b| = n columns: the strings, one boundary
// row (n ints) and one boundary column (m ints), and the tile-corner grid.
inline std::uint64_t device_bytes(std::int64_t m, std::int64_t n, const KloetzliConfig& c) {
  if (m == 0 || n == 0) return 0;
  const std::uint64_t corners =
      std::uint64_t(tiles_of(m, c.tile) + 1) * std::uint64_t(tiles_of(n, c.tile) + 1);
  return std::uint64_t(m + n) + 4 * std::uint64_t(m + n) + 4 * corners;
}

}  // namespace dpgpu::kloetzli
