// lcs_tile_kernel.cuh — tile mode: one warp computes one TH×TW tile of the LCS table, one
// launch computes one anti-diagonal of tiles.
//
// Lane t owns R consecutive rows of the tile (TH = 32·R), keeps their H values and their
// symbols of the row string in registers, and the warp sweeps the tile's TW columns as a
// skewed wavefront: at step s lane t computes column s − t of its rows. What a lane needs
// from above (the new value of the row above its first row, and the column symbol) is what
// lane t − 1 had one step earlier, so it arrives by __shfl_up_sync; lane 0 takes both from the
// tile's top boundary instead. Lane 31's last row is the tile's bottom boundary.
//
// Boundaries live in global memory, O(n + m) in all (host driver: lcs_wavefront.cu):
//   h_row[M]    H of the last finished tile row, per column: tile (i, j) reads its top there
//               and overwrites the same segment with its bottom row;
//   v_col[N]    H of the last finished tile column, per row: left in, right column out;
//   corner[TR]  H[i·TH][j·TW] for the next tile of tile row i. Tile (i, j − 1) read exactly
//               that value (the last of its top boundary) one diagonal earlier, so it leaves it
//               here for tile (i, j).
// Tiles of one diagonal touch disjoint segments of all three, so updates are in place, and
// every address a lane writes was read earlier by the same lane (no intra-warp hazard).
//
// Top boundary and column symbols are read 32 at a time, coalesced, one lane per column, one
// chunk ahead; lane 0 picks the value of step s out of the chunk with __shfl_sync. The bottom
// row is gathered the same way (lane 31 broadcasts, lane (column mod 32) keeps it) and stored
// 32 columns at a time. So the kernel uses no shared memory, no __syncwarp, and TW is not
// bounded by shared-memory capacity.
//
// Padding (done by the host, lcs_geometry.hpp): rows padded with a symbol that matches
// nothing, columns with another one, so every tile is full, no lane ever tests a ragged edge, and H at the padded
// corner equals the LCS of the original strings.
//
// Template flags (the length-only default instance is the kernel as tuned; the others only add
// code under `if constexpr`):
//   kBits  reconstruct: each lane also emits one decision bit per cell, H[i][j] > H[i−1][j],
//          collected per step into an R-bit column, shifted into a 32-bit word over G = 32/R
//          steps, and stored 32 consecutive words per warp at each group end (layout and
//          wrap-around of the drain steps: lcs_traceback.hpp). Off the critical path: the bit
//          is a compare and a shift-or beside the max chain.
//   P      how the strings are read: ldg (default, read-only data cache), plain, texture.
#pragma once
#if !defined(DPGPU_WAVEFRONT_CPU_EMULATION)  // test_lcs_kernels_on_cpu.cpp
#include <cuda_runtime.h>

#include "readonly.cuh"
#endif

#include <cstdint>

namespace dpgpu::wavefront {

inline constexpr unsigned kFullWarp = 0xffffffffu;

namespace tile_detail {

// One column of a lane's R rows. `h` holds H[r][col − 1] and becomes H[r][col]; `up` is
// H[first − 1][col] and `up_left` is H[first − 1][col − 1].
//
// max(up, left, up_left + match) is the textbook rule (match ? up_left + 1 : max(up, left))
// because neighbouring LCS values differ by at most 1 and grow to the right and downwards:
// on a match up_left + 1 ≥ up, left; otherwise up_left ≤ up. Written this way, the only
// dependency from one row to the next is a single max (on `up`); the rest overlaps.
template <int R, bool kBits>
__device__ __forceinline__ void column(int (&h)[R], const int (&sym)[R], int c, int up, int up_left,
                                       unsigned& bits) {
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int left = h[r];
    const int v = max(up, max(left, up_left + (sym[r] == c ? 1 : 0)));
    if constexpr (kBits) bits |= unsigned(v - up) << r;  // v − up is 0 or 1
    up_left = left;
    up = v;
    h[r] = v;
  }
}

// One step s of the warp's skewed sweep. kFeed: lane 0 still reads a column of this tile
// (s < TW) from the chunk registers. Every lane executes every shuffle (full mask); only the
// cell update is under `active`. kBits: this step's R bits (0 when inactive) are shifted into
// the top of `word`, so after G = 32/R steps the group's first step sits in the low bits.
template <int R, bool kFeed, bool kBits>
__device__ __forceinline__ void step(int s, int lane, bool active, int (&h)[R], const int (&sym)[R],
                                     int& up_left, int& c, int top_chunk, int sym_chunk,
                                     int& bottom_chunk, unsigned& word) {
  int up = __shfl_up_sync(kFullWarp, h[R - 1], 1);
  int cc = __shfl_up_sync(kFullWarp, c, 1);
  if constexpr (kFeed) {
    const int top = __shfl_sync(kFullWarp, top_chunk, s & 31);
    const int sym_top = __shfl_sync(kFullWarp, sym_chunk, s & 31);
    if (lane == 0) {
      up = top;
      cc = sym_top;
    }
  }
  c = cc;
  unsigned bits = 0;
  if (active) column<R, kBits>(h, sym, c, up, up_left, bits);
  if constexpr (kBits) {
    if constexpr (R == 32)
      word = bits;
    else
      word = (word >> R) | (bits << (32 - R));
  }
  up_left = up;
  // Lane 31 has just finished column s − 31 of the bottom row; lane (s − 31) mod 32 keeps it.
  const int bottom = __shfl_sync(kFullWarp, h[R - 1], 31);
  if (lane == ((s + 1) & 31)) bottom_chunk = bottom;
}

// The strings through the chosen read path. Row symbols come four at a time (one 8-byte load)
// except through a texture, which fetches 2-byte elements. Column symbols of a tile: from a
// pointer to the tile's first column (as the length-only kernel always did), or the texture.
template <ReadPath P>
__device__ __forceinline__ int load_symbol(const ReadOnly<std::uint16_t>& s, int i) {
  return int(fetch<P>(s, i));
}
template <ReadPath P>
struct ColumnSymbols {
  const std::uint16_t* p;  // the tile's first column (ldg, plain)
  ReadOnly<std::uint16_t> s;
  int col0;
  // Column base + lane of the tile (pointer arithmetic in the length-only kernel's order).
  __device__ __forceinline__ int operator()(int base, int lane) const {
    if constexpr (P == ReadPath::Texture)
      return int(fetch<P>(s, col0 + base + lane));
    else if constexpr (P == ReadPath::Ldg)
      return int(__ldg(p + base + lane));
    else
      return int(*(p + base + lane));
  }
};
template <int R, ReadPath P>
__device__ __forceinline__ void load_row_symbols(const ReadOnly<std::uint16_t>& a, int row0,
                                                 int (&sym)[R]) {
#pragma unroll
  for (int q = 0; q < R / 4; ++q) {
    if constexpr (P == ReadPath::Texture) {
#pragma unroll
      for (int k = 0; k < 4; ++k) sym[4 * q + k] = load_symbol<P>(a, row0 + 4 * q + k);
    } else {
      const uint2* p = reinterpret_cast<const uint2*>(a.ptr + row0) + q;
      uint2 s4;
      if constexpr (P == ReadPath::Ldg)
        s4 = __ldg(p);
      else
        s4 = *p;
      sym[4 * q + 0] = int(s4.x & 0xffffu);
      sym[4 * q + 1] = int(s4.x >> 16);
      sym[4 * q + 2] = int(s4.y & 0xffffu);
      sym[4 * q + 3] = int(s4.y >> 16);
    }
  }
}

}  // namespace tile_detail

// Computes the tiles (i, diagonal − i) of one anti-diagonal; warp w of the grid takes the
// w-th of them. Requirements (checked by the host): blockDim.x a multiple of 32, tile_width
// a multiple of 32, a and b padded to tile_rows·32·R and tile_cols·tile_width symbols.
// kBits: `bits` receives this diagonal's decision bits, TW·R words per tile, tile w of the
// diagonal at bits + w·TW·R (ignored otherwise).
template <int R, bool kBits = false, ReadPath P = ReadPath::Ldg>
__global__ void lcs_tile_diagonal(ReadOnly<std::uint16_t> a, ReadOnly<std::uint16_t> b,
                                  int* __restrict__ h_row, int* __restrict__ v_col,
                                  int* __restrict__ corner, std::uint32_t* __restrict__ bits,
                                  int tile_rows, int tile_cols, int tile_width, int diagonal) {
  static_assert(R % 4 == 0, "rows are loaded four at a time");
  constexpr int TH = 32 * R;
  constexpr int G = 32 / R;  // kBits: steps per 32-bit word
  using tile_detail::step;

  const int lane = threadIdx.x & 31;
  const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  const int first = max(0, diagonal - (tile_cols - 1));
  const int count = min(tile_rows - 1, diagonal) - first + 1;
  if (warp >= count) return;  // whole warps only: the surplus of the last block
  const int ti = first + warp;
  const int tj = diagonal - ti;
  const int row0 = ti * TH + lane * R;  // this lane's first row (0-based)
  const int col0 = tj * tile_width;     // the tile's first column (0-based)

  // This lane's rows: their symbols and their left boundary H[row][col0 − 1].
  int sym[R], h[R];
  tile_detail::load_row_symbols<R, P>(a, row0, sym);
#pragma unroll
  for (int q = 0; q < R / 4; ++q) {
    const int4 v4 = reinterpret_cast<const int4*>(v_col + row0)[q];
    h[4 * q + 0] = v4.x;
    h[4 * q + 1] = v4.y;
    h[4 * q + 2] = v4.z;
    h[4 * q + 3] = v4.w;
  }

  int* const top = h_row + col0;  // top boundary in, bottom boundary out
  const tile_detail::ColumnSymbols<P> bs{b.ptr + col0, b, col0};
  const int chunks = tile_width / 32;
  // kBits: this tile's words; word g·32 + lane holds step group g of this lane.
  std::uint32_t* const tile_bits =
      kBits ? bits + std::size_t(warp) * std::size_t(tile_width) * R : nullptr;
  unsigned word = 0, carry = 0;

  int up_left = lane == 0 ? corner[ti] : 0;  // lane 0: H[ti·TH − 1][col0 − 1]
  int c = 0;
  int bottom_chunk = 0;
  int top_chunk = top[lane];
  int sym_chunk = bs(0, lane);
  int top_next = 0, sym_next = 0;
  if (chunks > 1) {
    top_next = top[32 + lane];
    sym_next = bs(32, lane);
  }

  // Steps 0..31: lane t starts at step t.
#pragma unroll 1
  for (int u = 0; u < 32; ++u) {
    step<R, true, kBits>(u, lane, lane <= u, h, sym, up_left, c, top_chunk, sym_chunk, bottom_chunk,
                         word);
    if constexpr (kBits) {
      if (u % G == G - 1) {  // group g = u / G ends; the lane was active from step lane on
        const int g0 = u - (G - 1);
        if (lane <= g0)
          tile_bits[(u / G) * 32 + lane] = word;  // whole group
        else
          carry |= word;  // part (or none) of it: the drain completes this word
      }
    }
  }

  // Steps 32..TW−1: every lane busy; chunk q of the top row in registers, q + 1 in flight.
#pragma unroll 1
  for (int q = 1; q < chunks; ++q) {
    top_chunk = top_next;
    sym_chunk = sym_next;
    if (q + 1 < chunks) {
      top_next = top[32 * (q + 1) + lane];
      sym_next = bs(32 * (q + 1), lane);
    }
    const int s0 = 32 * q;
#pragma unroll 2
    for (int u = 0; u < 32; ++u) {
      step<R, true, kBits>(s0 + u, lane, true, h, sym, up_left, c, top_chunk, sym_chunk,
                           bottom_chunk, word);
      if (u == 30) top[s0 - 32 + lane] = bottom_chunk;  // bottom of columns s0−32 .. s0−1 done
      if constexpr (kBits) {
        if (u % G == G - 1) tile_bits[((s0 + u) / G) * 32 + lane] = word;
      }
    }
  }

  // Lane 0 last read top[TW − 1] = H[ti·TH − 1][col0 + TW − 1]: the corner of tile (ti, tj + 1).
  const int next_corner = up_left;

  // Steps TW..TW+30: lane t ends at step TW − 1 + t. kBits: step TW + u wraps to group u / G,
  // which the lane shares with its first steps (kept in `carry`) when lane is inside it.
#pragma unroll 1
  for (int u = 0; u < 31; ++u) {
    step<R, false, kBits>(tile_width + u, lane, lane > u, h, sym, up_left, c, 0, 0, bottom_chunk,
                          word);
    if constexpr (kBits) {
      if (u % G == G - 1) {
        const int g0 = u - (G - 1);
        if (lane > u)
          tile_bits[(u / G) * 32 + lane] = word;  // whole group
        else if (lane > g0)
          tile_bits[(u / G) * 32 + lane] = word | carry;  // shared group
      }
    }
  }
  if constexpr (kBits && G > 1) {
    // The last group would end at step TW + 31, which no lane computes: shift it into place.
    word >>= R;
    if (lane > 32 - G) tile_bits[(R - 1) * 32 + lane] = word | carry;
  }
  top[tile_width - 32 + lane] = bottom_chunk;

  // Right column out; corner for the next tile of this tile row.
#pragma unroll
  for (int q = 0; q < R / 4; ++q)
    reinterpret_cast<int4*>(v_col + row0)[q] =
        make_int4(h[4 * q], h[4 * q + 1], h[4 * q + 2], h[4 * q + 3]);
  if (lane == 0) corner[ti] = next_corner;
}

}  // namespace dpgpu::wavefront
