// lcs_geometry.hpp — what each mode derives from a configuration and the string lengths:
// padded sizes, tiles, the launch of each anti-diagonal, the padded symbol arrays, and the
// device and pinned-host bytes. Plain C++: used by the host driver, by `.memory()`, and by
// the CPU emulation test, so all three agree by construction.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lcs/tile_geometry.hpp"
#include "lcs_config.hpp"

namespace dpgpu::wavefront {

using ::lcs::kColPad;
using ::lcs::kRowPad;
using ::lcs::round_up;

// Largest |a| + |b| either mode accepts (lcs/tile_geometry.hpp).
inline constexpr std::int64_t kMaxLength = ::lcs::kMaxTiledLength;

// Tile mode: the layout of lcs/tile_geometry.hpp (shared with kokkos.wavefront), tiles of
// 32·R rows, one warp each.
struct TileGeometry : ::lcs::TileGeometry {
  int rows_per_thread = 0;  // R
  std::uint64_t device_bytes() const { return boundary_bytes(); }
  // Pinned host bytes: staging copies of both padded strings, and the answer.
  std::uint64_t host_bytes() const { return std::uint64_t(padded_rows + padded_cols) * 2 + 4; }
};

// The string `s` as tile-mode symbols, padded with `pad` to `padded` entries.
inline void fill_tile_symbols(const std::string& s, std::uint16_t pad, std::uint16_t* out,
                              std::size_t padded) {
  for (std::size_t i = 0; i < padded; ++i)
    out[i] = i < s.size() ? std::uint16_t(static_cast<unsigned char>(s[i])) : pad;
}

// Launch of tile diagonal d: tiles (i, d − i) for i = first .. first + tiles − 1, one warp each.
struct TileLaunch {
  std::int64_t first = 0, tiles = 0, blocks = 0;
};
inline TileLaunch tile_launch(const TileGeometry& g, std::int64_t d, int block) {
  TileLaunch l;
  l.first = std::max<std::int64_t>(0, d - (g.tile_cols - 1));
  l.tiles = std::min<std::int64_t>(g.tile_rows - 1, d) - l.first + 1;
  const std::int64_t warps_per_block = block / 32;
  l.blocks = (l.tiles + warps_per_block - 1) / warps_per_block;
  return l;
}

inline TileGeometry tile_geometry(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  TileGeometry g{::lcs::tile_geometry(n, m, 32 * c.rows_per_thread, c.tile_width)};
  g.rows_per_thread = c.rows_per_thread;
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
    return std::uint64_t(a_length) + std::uint64_t(b_length) +
           3 * std::uint64_t(diagonal_length) * 4;
  }
  std::uint64_t host_bytes() const { return std::uint64_t(a_length + b_length) + 4; }  // pinned
};

// The string `s` as cell-mode bytes: `left_guard` zero bytes, s, zero bytes up to `length`.
// (Guards are read only by threads whose cells lie outside the table, so any value does.)
inline void fill_cell_symbols(const std::string& s, std::size_t left_guard, std::uint8_t* out,
                              std::size_t length) {
  std::fill(out, out + length, std::uint8_t{0});
  std::copy(s.begin(), s.end(), reinterpret_cast<char*>(out) + left_guard);
}

// Launch of cell diagonal k (2 ≤ k ≤ n + m): interior rows lo .. hi, rounded out to whole
// blocks starting at first_row ≥ 1.
struct CellLaunch {
  std::int64_t first_row = 0, blocks = 0;
};
inline CellLaunch cell_launch(const CellGeometry& g, std::int64_t k) {
  const std::int64_t lo = std::max<std::int64_t>(1, k - g.cols),
                     hi = std::min<std::int64_t>(g.rows, k - 1);
  CellLaunch l;
  l.first_row = 1 + (lo - 1) / g.block * g.block;
  l.blocks = (hi - l.first_row + g.block) / g.block;
  return l;
}

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

// ---------------------------------------------------------------- decision bits (reconstruct)
//
// One bit per cell: H[i][j] > H[i−1][j] (the vertical delta). With the strings, that is all a
// traceback needs: on a match go diagonally; otherwise bit 0 means H[i−1][j] = H[i][j] (go
// up), bit 1 means H[i][j−1] = H[i][j] (go left). See lcs_traceback.hpp for the layouts.
//
// The bits are produced in units (a tile diagonal; a cell diagonal) and stored unit after
// unit in one host array of 32-bit words; offset[u] is where unit u starts. The device stages
// "chunks" of units: a tile diagonal, or a batch of kCellBatch consecutive cell diagonals
// (one launch each, so per-push overhead is paid once per batch), alternating between
// kDeviceBitBuffers buffers so the next chunk computes while the last one is copied.
inline constexpr int kDeviceBitBuffers = 2;
inline constexpr std::int64_t kCellBatch = 64;

struct BitsLayout {
  std::vector<std::int64_t> offset;  // words; units + 1 entries, offset.back() = total
  std::int64_t chunk_words_max = 0;  // largest chunk the device stages at once
  std::int64_t total_words() const { return offset.empty() ? 0 : offset.back(); }
  std::uint64_t total_bytes() const { return std::uint64_t(total_words()) * 4; }
  std::uint64_t chunk_bytes_max() const { return std::uint64_t(chunk_words_max) * 4; }
};

// Tile mode: a tile's TH·TW bits are TW·R words; unit d = tile diagonal d, its tiles
// i = first .. first + tiles − 1 one after the other.
inline std::int64_t tile_bit_words(const TileGeometry& g) {
  return std::int64_t(g.tile_width) * g.rows_per_thread;
}
inline BitsLayout tile_bits_layout(const TileGeometry& g, int block) {
  BitsLayout b;
  b.offset.resize(std::size_t(g.diagonals()) + 1, 0);
  for (std::int64_t d = 0; d < g.diagonals(); ++d)
    b.offset[std::size_t(d) + 1] =
        b.offset[std::size_t(d)] + tile_launch(g, d, block).tiles * tile_bit_words(g);
  b.chunk_words_max = g.widest_diagonal() * tile_bit_words(g);
  return b;
}

// Cell mode: unit k − 2 = cell diagonal k, one word per warp of its launch (a ballot): bit x
// of word w is row first_row + 32·w + x.
inline BitsLayout cell_bits_layout(const CellGeometry& g) {
  BitsLayout b;
  b.offset.resize(std::size_t(g.diagonals()) + 1, 0);
  for (std::int64_t k = 2; k <= g.rows + g.cols; ++k) {
    const std::size_t u = std::size_t(k - 2);
    b.offset[u + 1] = b.offset[u] + cell_launch(g, k).blocks * g.block / 32;
  }
  for (std::int64_t u = 0; u < g.diagonals(); u += kCellBatch) {
    const std::int64_t end = std::min(u + kCellBatch, g.diagonals());
    b.chunk_words_max =
        std::max(b.chunk_words_max, b.offset[std::size_t(end)] - b.offset[std::size_t(u)]);
  }
  return b;
}

inline BitsLayout bits_layout(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  if (n == 0 || m == 0) return BitsLayout{{0}, 0};
  return c.mode == LcsMode::Tile ? tile_bits_layout(tile_geometry(n, m, c), c.block)
                                 : cell_bits_layout(cell_geometry(n, m, c));
}

// Device bytes of the bits: kDeviceBitBuffers chunks when offloading, else all of them.
inline std::uint64_t bits_device_bytes(const BitsLayout& b, const LcsWavefrontConfig& c) {
  if (!c.reconstruct || b.total_words() == 0) return 0;
  return c.offload ? std::uint64_t(kDeviceBitBuffers) * b.chunk_bytes_max() : b.total_bytes();
}
// Host bytes of the bits: the array the traceback reads, plus the pinned ring when offloading.
inline std::uint64_t bits_host_bytes(const BitsLayout& b, const LcsWavefrontConfig& c) {
  if (!c.reconstruct || b.total_words() == 0) return 0;
  return b.total_bytes() + (c.offload ? std::uint64_t(c.offload_slots) * b.chunk_bytes_max() : 0);
}

// Device bytes a solve of |a| = n, |b| = m allocates (0 when either is empty: nothing runs).
inline std::uint64_t device_bytes(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  if (n == 0 || m == 0) return 0;
  const std::uint64_t base = c.mode == LcsMode::Tile ? tile_geometry(n, m, c).device_bytes()
                                                     : cell_geometry(n, m, c).device_bytes();
  return base + (c.reconstruct ? bits_device_bytes(bits_layout(n, m, c), c) : 0);
}
// Host bytes: pinned staging of the strings and the answer, and with reconstruct the bits.
inline std::uint64_t host_bytes(std::int64_t n, std::int64_t m, const LcsWavefrontConfig& c) {
  if (n == 0 || m == 0) return 0;
  const std::uint64_t base = c.mode == LcsMode::Tile ? tile_geometry(n, m, c).host_bytes()
                                                     : cell_geometry(n, m, c).host_bytes();
  return base + (c.reconstruct ? bits_host_bytes(bits_layout(n, m, c), c) : 0);
}

}  // namespace dpgpu::wavefront
