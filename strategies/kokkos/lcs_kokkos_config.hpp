// lcs_kokkos_config.hpp — the tuning policy of kokkos.wavefront / kokkos.wavefront_host for LCS, and
// the tile geometry both the driver and the memory estimate derive from it. Plain C++.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "lcs/tile_geometry.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {

enum class LcsMode {
  Tile,  // a team per TH × TW tile, one dispatch per anti-diagonal of tiles
  Cell,  // a work item per cell, one dispatch per anti-diagonal of cells (paper 000's model)
};

// The solvers' parameters (each bound to its field in lcs_params.cpp); defaults per space.
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
  return s == Space::Device ? int_list(LcsCompiled<Space::Device>::rows)
                            : int_list(LcsCompiled<Space::Host>::rows);
}
inline std::vector<int> compiled_columns(Space s) {
  return s == Space::Device ? int_list(LcsCompiled<Space::Device>::columns)
                            : int_list(LcsCompiled<Space::Host>::columns);
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
      throw dpgpu::InputError(solver + ": parameter '" + name + "' must be one of " +
                              list_text(list) + " (" + what + "), got " + std::to_string(value));
  };
  compiled("rows_per_thread", c.rows_per_thread, compiled_rows(S), "the compiled tile heights");
  compiled("columns_per_step", c.columns_per_step, compiled_columns(S),
           "the compiled strip widths");
  if (c.tile_width < 32 || c.tile_width > 65536 || c.tile_width % 32 != 0)
    throw dpgpu::InputError(
        solver + ": parameter 'tile_width' must be a multiple of 32 in [32, 65536], got " +
        std::to_string(c.tile_width));
}

using ::lcs::kColPad;
using ::lcs::kRowPad;
inline constexpr std::int64_t kMaxLength =
    ::lcs::kMaxTiledLength;  // |a| + |b|: 32-bit indices and values

// The layout of lcs/tile_geometry.hpp (shared with gpu.wavefront), a team per tile.
struct TileGeometry : ::lcs::TileGeometry {
  // The layout's strings, boundaries and corners, and the answer.
  std::uint64_t device_bytes() const { return boundary_bytes() + 4; }
};

template <Space S>
TileGeometry tile_geometry(std::int64_t n, std::int64_t m, const LcsKokkosConfig<S>& c) {
  return TileGeometry{
      ::lcs::tile_geometry(n, m, team_threads(S) * c.rows_per_thread, c.tile_width)};
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
