// lcs_config.hpp — the tuning policy of kokkos.wavefront / kokkos.wavefront_host for LCS, and
// the tile geometry both the driver and the memory estimate derive from it. Plain C++.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"

namespace dpgpu::kokkos {

enum class LcsMode {
  Tile,  // a team per TH × TW tile, one dispatch per anti-diagonal of tiles
  Cell,  // a work item per cell, one dispatch per anti-diagonal of cells (paper 000's model)
};

// Which execution space a solver runs on; fixes the team size and the compiled row counts.
enum class Space { Device, Host };

struct LcsKokkosConfig {
  LcsMode mode = LcsMode::Tile;
  int rows_per_thread = 16;  // tile: rows each team thread keeps in registers (R)
  int tile_width = 256;      // tile: columns per tile (TW)
};

// Threads per team: a warp on the GPU (each owns R rows of the tile); one thread on the host
// (it owns the whole tile, as a thread of cpu.omp_wavefront does).
inline int team_threads(Space s) { return s == Space::Device ? 32 : 1; }

// The rows-per-thread values compiled for each space (template instances of the tile functor).
inline std::vector<int> compiled_rows(Space s) {
  return s == Space::Device ? std::vector<int>{4, 8, 16, 32} : std::vector<int>{64, 128, 256, 512};
}

inline LcsKokkosConfig default_config(Space s) {
  LcsKokkosConfig c;
  c.rows_per_thread = s == Space::Device ? 16 : 256;  // tiles 512 × 256 (gpu.wavefront) and 256 × 256 (cpu.omp_wavefront)
  return c;
}

inline void validate(const LcsKokkosConfig& c, Space s, const std::string& solver) {
  if (c.mode != LcsMode::Tile) return;
  const auto rows = compiled_rows(s);
  if (std::find(rows.begin(), rows.end(), c.rows_per_thread) == rows.end()) {
    std::string list;
    for (int r : rows) list += (list.empty() ? "" : ", ") + std::to_string(r);
    throw dpgpu::InputError(solver + ": parameter 'rows_per_thread' must be one of " + list +
                            " (the compiled tile heights), got " + std::to_string(c.rows_per_thread));
  }
  if (c.tile_width < 32 || c.tile_width > 65536 || c.tile_width % 32 != 0)
    throw dpgpu::InputError(solver + ": parameter 'tile_width' must be a multiple of 32 in [32, 65536], got " +
                            std::to_string(c.tile_width));
}

// Largest |a| + |b|: indices and DP values are 32-bit.
inline constexpr std::int64_t kMaxLength = (std::int64_t{1} << 31) - (std::int64_t{1} << 17);

// Symbols as uint16: bytes as themselves, padding above 255 and different for rows and columns,
// so a padded row or column matches nothing and every tile is full.
inline constexpr std::uint16_t kRowPad = 0x100;
inline constexpr std::uint16_t kColPad = 0x101;

inline std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

// The longer string runs down the rows; both are padded to whole tiles.
struct TileGeometry {
  bool swapped = false;  // rows are b
  std::int64_t rows = 0, cols = 0;
  int tile_height = 0, tile_width = 0;
  std::int64_t padded_rows = 0, padded_cols = 0, tile_rows = 0, tile_cols = 0;
  std::int64_t diagonals() const { return tile_rows + tile_cols - 1; }
  // Strings as uint16, boundary row and column as int32, a corner per tile row, the answer.
  std::uint64_t device_bytes() const {
    return std::uint64_t(padded_rows + padded_cols) * 6 + std::uint64_t(tile_rows) * 4 + 4;
  }
};

inline TileGeometry tile_geometry(std::int64_t n, std::int64_t m, const LcsKokkosConfig& c, Space s) {
  TileGeometry g;
  g.swapped = m > n;
  g.rows = std::max(n, m);
  g.cols = std::min(n, m);
  g.tile_height = team_threads(s) * c.rows_per_thread;
  g.tile_width = static_cast<int>(std::min<std::int64_t>(c.tile_width, round_up(std::max<std::int64_t>(g.cols, 1), 32)));
  g.padded_rows = round_up(std::max<std::int64_t>(g.rows, 1), g.tile_height);
  g.padded_cols = round_up(std::max<std::int64_t>(g.cols, 1), g.tile_width);
  g.tile_rows = g.padded_rows / g.tile_height;
  g.tile_cols = g.padded_cols / g.tile_width;
  return g;
}

// Cell mode: three anti-diagonals of n + 1 values, indexed by row, and both strings as bytes.
inline std::uint64_t cell_device_bytes(std::int64_t n, std::int64_t m) {
  return 3 * std::uint64_t(n + 1) * 4 + std::uint64_t(n + m) + 4;
}

inline std::uint64_t device_bytes(std::int64_t n, std::int64_t m, const LcsKokkosConfig& c, Space s) {
  return c.mode == LcsMode::Cell ? cell_device_bytes(n, m) : tile_geometry(n, m, c, s).device_bytes();
}

}  // namespace dpgpu::kokkos
