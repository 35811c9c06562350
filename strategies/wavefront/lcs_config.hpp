// lcs_config.hpp — the tuning policy of gpu.wavefront for LCS, apart from the algorithm:
// the configuration, its checks, the grid geometry each mode derives from it, and the device
// bytes that geometry needs. Plain C++ (no CUDA), so the solver's schema, `.memory()` and
// parameter checks work in CPU-only builds too.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "dpgpu/error.hpp"

namespace dpgpu::wavefront {

enum class LcsMode {
  Tile,  // warp per TH×TW tile, launch per anti-diagonal of tiles (tuned for H100)
  Cell,  // thread per cell, launch per anti-diagonal of cells (the paper's model)
};

struct LcsWavefrontConfig {
  LcsMode mode = LcsMode::Tile;
  int block = 128;            // threads per block; multiple of 32 (tile: one warp per tile)
  int rows_per_thread = 16;   // tile: R rows per lane, tile height TH = 32·R; one of 4, 8, 16, 32
  int tile_width = 512;       // tile: TW columns per tile; multiple of 32
};

inline const char* to_string(LcsMode m) { return m == LcsMode::Tile ? "tile" : "cell"; }

// Throws dpgpu::InputError naming the offending parameter.
inline void validate(const LcsWavefrontConfig& c) {
  auto fail = [](const std::string& what) { throw dpgpu::InputError("gpu.wavefront: " + what); };
  if (c.block < 32 || c.block > 1024 || c.block % 32 != 0)
    fail("parameter 'block' must be a multiple of 32 in [32, 1024] (one warp is 32 threads), got " +
         std::to_string(c.block));
  if (c.mode == LcsMode::Tile) {
    const int r = c.rows_per_thread;
    if (r != 4 && r != 8 && r != 16 && r != 32)
      fail("parameter 'rows_per_thread' must be one of 4, 8, 16, 32 (compiled tile heights 128, "
           "256, 512, 1024), got " + std::to_string(r));
    if (c.tile_width < 32 || c.tile_width > 65536 || c.tile_width % 32 != 0)
      fail("parameter 'tile_width' must be a multiple of 32 in [32, 65536], got " +
           std::to_string(c.tile_width));
  }
}

inline std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

// Largest |a| + |b| either mode accepts: indices, diagonal numbers and DP values are 32-bit
// on the device.
inline constexpr std::int64_t kMaxLength = (std::int64_t{1} << 31) - (std::int64_t{1} << 17);

// Tile mode. The longer string runs down the rows (so a short string never pads up to a whole
// tile height), both strings are padded with symbols that match nothing, and the tile width
// shrinks to the padded column count when the columns are fewer than one tile.
struct TileGeometry {
  bool swapped = false;      // rows are b, columns are a
  std::int64_t rows = 0;     // unpadded row count (length of the row string)
  std::int64_t cols = 0;     // unpadded column count
  int rows_per_thread = 0;   // R
  int tile_height = 0;       // TH = 32·R
  int tile_width = 0;        // effective TW = min(tile_width, cols rounded up to 32)
  std::int64_t padded_rows = 0;  // N, multiple of TH
  std::int64_t padded_cols = 0;  // M, multiple of TW
  std::int64_t tile_rows = 0;    // N / TH
  std::int64_t tile_cols = 0;    // M / TW
  std::int64_t diagonals() const { return tile_rows + tile_cols - 1; }
  std::int64_t widest_diagonal() const { return std::min(tile_rows, tile_cols); }

  // Device bytes: both padded strings as uint16, the boundary row H_row[M] and column
  // V_col[N] as int32, and one int32 corner per tile row.
  std::uint64_t device_bytes() const {
    return std::uint64_t(padded_rows + padded_cols) * 2 + std::uint64_t(padded_rows + padded_cols) * 4 +
           std::uint64_t(tile_rows) * 4;
  }
  // Pinned host bytes: staging copies of both padded strings, and the answer.
  std::uint64_t host_bytes() const { return std::uint64_t(padded_rows + padded_cols) * 2 + 4; }
};

inline TileGeometry tile_geometry(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  TileGeometry g;
  g.swapped = m > n;
  g.rows = std::max(n, m);
  g.cols = std::min(n, m);
  g.rows_per_thread = c.rows_per_thread;
  g.tile_height = 32 * c.rows_per_thread;
  g.tile_width = static_cast<int>(std::min<std::int64_t>(c.tile_width, round_up(std::max<std::int64_t>(g.cols, 1), 32)));
  g.padded_rows = round_up(std::max<std::int64_t>(g.rows, 1), g.tile_height);
  g.padded_cols = round_up(std::max<std::int64_t>(g.cols, 1), g.tile_width);
  g.tile_rows = g.padded_rows / g.tile_height;
  g.tile_cols = g.padded_cols / g.tile_width;
  return g;
}

// Cell mode (the paper's model): rows are a, columns b, as given. Anti-diagonal k = i + j
// (1-based cell (i, j)) is stored indexed by its row i in a buffer of `diagonal_length`
// ints; three such buffers rotate. A launch covers the rows of the diagonal's interior cells
// rounded out to whole blocks; the surplus threads compute into slots that no real cell
// reads (see lcs_cell_kernel.cuh), so the strings carry `block` guard symbols around them.
struct CellGeometry {
  std::int64_t rows = 0, cols = 0;  // n = |a|, m = |b|
  int block = 0;
  std::int64_t diagonal_length = 0;  // n + block, rounded up to a block: rows 0..n + surplus
  std::int64_t a_length = 0;         // a[i-1] for i up to n + block - 1
  std::int64_t b_length = 0;         // block guards, b, block guards
  std::int64_t diagonals() const { return rows + cols - 1; }  // k = 2 .. n + m
  std::uint64_t device_bytes() const {
    return std::uint64_t(a_length) + std::uint64_t(b_length) + 3 * std::uint64_t(diagonal_length) * 4;
  }
  std::uint64_t host_bytes() const { return std::uint64_t(a_length + b_length) + 4; }  // pinned
};

inline CellGeometry cell_geometry(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  CellGeometry g;
  g.rows = n;
  g.cols = m;
  g.block = c.block;
  g.diagonal_length = round_up(n + c.block, c.block);
  g.a_length = n + c.block;
  g.b_length = m + 2 * std::int64_t{c.block};
  return g;
}

// Device bytes a solve of |a| = n, |b| = m allocates (0 when either is empty: nothing runs).
inline std::uint64_t device_bytes(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  if (n == 0 || m == 0) return 0;
  return c.mode == LcsMode::Tile ? tile_geometry(n, m, c).device_bytes() : cell_geometry(n, m, c).device_bytes();
}
inline std::uint64_t host_bytes(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  if (n == 0 || m == 0) return 0;
  return c.mode == LcsMode::Tile ? tile_geometry(n, m, c).host_bytes() : cell_geometry(n, m, c).host_bytes();
}

}  // namespace dpgpu::wavefront
