// lcs_traceback.hpp — where each mode's kernels leave a cell's decision bit, and the host
// traceback that turns the bits into an LCS string. Plain C++: used by the host driver and by
// the CPU emulation test, so both read the same layout.
//
// The bit of cell (i, j) (1-based) is H[i][j] > H[i−1][j]. Traceback from the bottom-right
// cell: on a match go diagonally (always optimal for LCS); otherwise bit 0 says H[i−1][j] =
// H[i][j] (go up), bit 1 says H[i][j−1] = H[i][j] (go left, since H[i][j] = max(up, left)).
// So one bit per cell suffices and nothing is recomputed; the match bit would be redundant
// with the strings, which the host has.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "lcs_geometry.hpp"

namespace dpgpu::wavefront {

// Tile mode. Tile (ti, tj) lies on diagonal d = ti + tj at words offset[d] + (ti − first(d))·TW·R.
// Inside a tile, lane t (rows t·R .. t·R + R − 1) at step s of the skewed sweep computes column
// s − t. Steps are grouped G = 32 / R at a time; group g's word for lane t is word g·32 + t,
// step g·G + p at bits p·R .. p·R + R − 1, row r of the lane at bit p·R + r. Steps past TW − 1
// (the drain, s = TW + u) wrap to u: lane t's steps t .. t + TW − 1 cover every residue mod TW
// once, so a tile needs exactly TW·R words, and at each group end the warp stores 32
// consecutive words.
struct TileBitReader {
  const TileGeometry* g;
  const BitsLayout* layout;
  const std::uint32_t* words;
  // row, col: 0-based, in the tile orientation (rows = the row string); cell (row+1, col+1).
  bool operator()(std::int64_t row, std::int64_t col) const {
    const std::int64_t TH = g->tile_height, TW = g->tile_width, R = g->rows_per_thread, G = 32 / R;
    const std::int64_t ti = row / TH, tj = col / TW, d = ti + tj;
    const std::int64_t first = std::max<std::int64_t>(0, d - (g->tile_cols - 1));
    const std::int64_t base = layout->offset[std::size_t(d)] + (ti - first) * TW * R;
    const std::int64_t rr = row % TH, t = rr / R, r = rr % R;
    std::int64_t s = col % TW + t;
    if (s >= TW) s -= TW;
    const std::uint32_t w = words[base + (s / G) * 32 + t];
    return (w >> ((s % G) * R + r)) & 1u;
  }
};

// Cell mode: cell (i, j) lies on diagonal k = i + j, unit k − 2; its launch's thread
// x = i − first_row wrote bit x % 32 of word offset[k − 2] + x / 32.
struct CellBitReader {
  const CellGeometry* g;
  const BitsLayout* layout;
  const std::uint32_t* words;
  // row, col: 0-based (rows = a); cell (row+1, col+1).
  bool operator()(std::int64_t row, std::int64_t col) const {
    const std::int64_t i = row + 1, k = i + col + 1;
    const std::int64_t x = i - cell_launch(*g, k).first_row;
    return (words[layout->offset[std::size_t(k - 2)] + x / 32] >> (x % 32)) & 1u;
  }
};

// An LCS of `rows` and `cols` from the bits `bit(row, col)` of the table rows × cols.
template <class Bit>
std::string traceback(const std::string& rows, const std::string& cols, const Bit& bit) {
  std::string out;
  std::int64_t i = std::int64_t(rows.size()) - 1, j = std::int64_t(cols.size()) - 1;
  while (i >= 0 && j >= 0) {
    if (rows[std::size_t(i)] == cols[std::size_t(j)]) {
      out.push_back(rows[std::size_t(i)]);
      --i;
      --j;
    } else if (bit(i, j)) {
      --j;
    } else {
      --i;
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace dpgpu::wavefront
