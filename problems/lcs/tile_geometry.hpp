// tile_geometry.hpp — how a tiled LCS wavefront lays the score table out, whatever runs it
// (gpu.wavefront's tile mode, kokkos.wavefront): the longer string runs down the rows (so a
// short string never pads up to a whole tile height), both strings are padded with symbols
// that match nothing (so every tile is full), and the tile width shrinks to the padded column
// count when the columns are fewer than one tile. Plain C++, host and device builds.
#pragma once
#include <algorithm>
#include <cstdint>

namespace lcs {

// Largest |a| + |b| a tiled solver accepts: indices, diagonal numbers and DP values are 32-bit
// on the device.
inline constexpr std::int64_t kMaxTiledLength = (std::int64_t{1} << 31) - (std::int64_t{1} << 17);

// Symbols as uint16: bytes 0..255 as themselves; padding above 255 and different for rows
// and columns, so a padded row or column matches nothing.
inline constexpr std::uint16_t kRowPad = 0x100;
inline constexpr std::uint16_t kColPad = 0x101;

inline std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

struct TileGeometry {
  bool swapped = false;          // rows are b, columns are a
  std::int64_t rows = 0;         // unpadded row count (length of the row string)
  std::int64_t cols = 0;         // unpadded column count
  int tile_height = 0;           // TH
  int tile_width = 0;            // effective TW = min(tile_width, cols rounded up to 32)
  std::int64_t padded_rows = 0;  // N, multiple of TH
  std::int64_t padded_cols = 0;  // M, multiple of TW
  std::int64_t tile_rows = 0;    // N / TH
  std::int64_t tile_cols = 0;    // M / TW
  std::int64_t diagonals() const { return tile_rows + tile_cols - 1; }
  std::int64_t widest_diagonal() const { return std::min(tile_rows, tile_cols); }
  // Device bytes of the layout: both padded strings as uint16, the boundary row H_row[M] and
  // column V_col[N] as int32, and one int32 corner per tile row.
  std::uint64_t boundary_bytes() const {
    return std::uint64_t(padded_rows + padded_cols) * 2 +
           std::uint64_t(padded_rows + padded_cols) * 4 + std::uint64_t(tile_rows) * 4;
  }
};

// The layout of an n × m table in tiles of tile_height rows and at most tile_width columns.
inline TileGeometry tile_geometry(std::int64_t n, std::int64_t m, int tile_height, int tile_width) {
  TileGeometry g;
  g.swapped = m > n;
  g.rows = std::max(n, m);
  g.cols = std::min(n, m);
  g.tile_height = tile_height;
  g.tile_width = static_cast<int>(
      std::min<std::int64_t>(tile_width, round_up(std::max<std::int64_t>(g.cols, 1), 32)));
  g.padded_rows = round_up(std::max<std::int64_t>(g.rows, 1), g.tile_height);
  g.padded_cols = round_up(std::max<std::int64_t>(g.cols, 1), g.tile_width);
  g.tile_rows = g.padded_rows / g.tile_height;
  g.tile_cols = g.padded_cols / g.tile_width;
  return g;
}

}  // namespace lcs
