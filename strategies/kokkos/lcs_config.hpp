// lcs_config.hpp — the tuning policy of kokkos.wavefront / kokkos.wavefront_host for LCS, and
// the tile geometry both the driver and the memory estimate derive from it. Plain C++.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {

enum class LcsMode {
  Tile,  // a team per TH × TW tile, one dispatch per anti-diagonal of tiles
  Cell,  // a work item per cell, one dispatch per anti-diagonal of cells (paper 000's model)
};

// The solvers' parameters (each bound to its field in lcs_register.cpp); defaults per space.
template <Space S>
struct LcsKokkosConfig {
  static constexpr bool kDevice = S == Space::Device;
  LcsMode mode = LcsMode::Tile;
  // tile: rows each team thread keeps in registers (R); tiles 512 × 256 on the GPU
  // (gpu.wavefront's default) and 256 × 256 on the host (cpu.omp_wavefront's).
  int rows_per_thread = kDevice ? 16 : 256;
  // tile: columns a team thread computes between two team barriers (K). On the GPU every
  // step passes K values through team scratch, so the barrier and the scratch round trip are
  // paid once per K columns, and the K × R cells of a step overlap (ILP); the skew grows to
  // (team − 1)·K columns. The host team is one thread: no barrier, K = 1.
  int columns_per_step = kDevice ? 4 : 1;
  int tile_width = 256;  // tile: columns per tile (TW)
};

// Threads per team: a warp on the GPU (each owns R rows of the tile); one thread on the host
// (it owns the whole tile, as a thread of cpu.omp_wavefront does).
inline int team_threads(Space s) { return s == Space::Device ? 32 : 1; }

// The rows-per-thread and columns-per-step values compiled for each space: every pair is a
// template instance of the tile functor (lcs_driver.hpp dispatches on them).
template <Space S>
struct LcsCompiled;
template <>
struct LcsCompiled<Space::Device> {
  static constexpr std::array<int, 4> rows{4, 8, 16, 32};
  static constexpr std::array<int, 4> columns{1, 2, 4, 8};
};
template <>
struct LcsCompiled<Space::Host> {
  static constexpr std::array<int, 4> rows{64, 128, 256, 512};
  static constexpr std::array<int, 1> columns{1};
};
template <std::size_t N>
std::vector<int> int_list(const std::array<int, N>& a) {
  return {a.begin(), a.end()};
}
inline std::vector<int> compiled_rows(Space s) {
  return s == Space::Device ? int_list(LcsCompiled<Space::Device>::rows) : int_list(LcsCompiled<Space::Host>::rows);
}
inline std::vector<int> compiled_columns(Space s) {
  return s == Space::Device ? int_list(LcsCompiled<Space::Device>::columns) : int_list(LcsCompiled<Space::Host>::columns);
}

inline std::string list_text(const std::vector<int>& v) {
  std::string list;
  for (int r : v) list += (list.empty() ? "" : ", ") + std::to_string(r);
  return list;
}

template <Space S>
void validate(const LcsKokkosConfig<S>& c, const std::string& solver) {
  if (c.mode != LcsMode::Tile) return;
  auto compiled = [&](const char* name, int value, const std::vector<int>& list, const char* what) {
    if (std::find(list.begin(), list.end(), value) == list.end())
      throw dpgpu::InputError(solver + ": parameter '" + name + "' must be one of " + list_text(list) + " (" + what +
                              "), got " + std::to_string(value));
  };
  compiled("rows_per_thread", c.rows_per_thread, compiled_rows(S), "the compiled tile heights");
  compiled("columns_per_step", c.columns_per_step, compiled_columns(S), "the compiled strip widths");
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

template <Space S>
TileGeometry tile_geometry(std::int64_t n, std::int64_t m, const LcsKokkosConfig<S>& c) {
  TileGeometry g;
  g.swapped = m > n;
  g.rows = std::max(n, m);
  g.cols = std::min(n, m);
  g.tile_height = team_threads(S) * c.rows_per_thread;
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

template <Space S>
std::uint64_t device_bytes(std::int64_t n, std::int64_t m, const LcsKokkosConfig<S>& c) {
  return c.mode == LcsMode::Cell ? cell_device_bytes(n, m) : tile_geometry(n, m, c).device_bytes();
}

}  // namespace dpgpu::kokkos
