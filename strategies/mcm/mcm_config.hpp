// mcm_config.hpp — the parameters of gpu.mcm and gpu.mcm_tiled (each field one parameter of
// the registration in mcm_params.cpp) and their rules against an instance. Host C++ only:
// the registration, the CUDA drivers and the host-only tests share it.
#pragma once
#include <cstdint>
#include <string>

#include "mcm/mcm.hpp"
#include "mcm_policy.hpp"

namespace dpgpu::mcm_gpu {

// The paper's Table II as a table (GTX 480, n = 16,384): its threads per setting are not
// given, so 32 (its fastest Table I column) and 8 blocks per entry.
inline constexpr const char* kPaperTable =
    "2-3668:block:32,3669-15406:thread:32,15407-15662:block:32,15663-*:blocks:32:8";

enum class Policy { fixed, table, calibrate };
enum class CellBits {
  automatic,
  b32,
  b64
};  // bits of a stored cost: "auto" (32, escape to 64), "32", "64"

struct McmConfig {
  Policy policy = Policy::fixed;
  Kernel kernel = Kernel::thread;   // policy fixed: the kernel of every diagonal
  int threads = 32;                 // policy fixed: threads per block, a multiple of 32
  int blocks = 8;                   // policy fixed, kernel blocks: blocks per entry
  std::string table = kPaperTable;  // policy table: ranges of l (parse_table's syntax)
  double budget = 0.01;  // policy calibrate: share of the compute time its losing launches may take
  CellBits cell = CellBits::automatic;
};

// The setting of policy fixed (blocks per entry only for the blocks kernel).
inline Setting fixed_setting(const McmConfig& c) {
  return {c.kernel, c.threads, c.kernel == Kernel::blocks ? c.blocks : 1};
}

// Why gpu.mcm cannot solve `x` with `c`, or "": int64 candidates must not overflow, and
// `cell: 32` needs every cost below 2^32. The registration declares it (dpgpu check) and
// solve_mcm applies it to direct callers.
inline std::string why_not(const ::mcm::Instance& x, const McmConfig& c) {
  if (auto why = ::mcm::int64_excess(x); !why.empty()) return why;
  if (c.cell == CellBits::b32 && !::mcm::costs_fit_32_bits(x))
    return "'cell' 32: a cost could reach 2^32 or more (bound P²·max(b-a-1)·min(p_a..p_b)); use "
           "cell 64 or auto";
  return {};
}

// 32-bit cells: `32` (every cost provably fits) or `auto` (always; with the 64-bit escape
// when the bound does not prove that every cost fits).
inline bool use_32_bits(const McmConfig& c) { return c.cell != CellBits::b64; }
inline bool use_escape(const ::mcm::Instance& x, const McmConfig& c) {
  return c.cell == CellBits::automatic && !::mcm::costs_fit_32_bits(x);
}

inline constexpr int kMaxParts = 1024;  // blocks per entry, at most

// What solve_mcm allocates on the device: the triangle twice (costs, int32 splits), the square
// symmetric copy, the 64-bit square of escaped cells, the blocks kernel's partial minima and the walk's output.
inline std::uint64_t mcm_device_bytes(const ::mcm::Instance& x, const McmConfig& c) {
  const auto w = std::uint64_t(x.n() + 1);
  const std::uint64_t cell = use_32_bits(c) ? 4 : 8;
  const std::uint64_t tri = w * (w + 1) / 2;  // diag_offset(w, w): diagonals 0..w-1
  const std::uint64_t wide = use_escape(x, c) ? w * w * 8 : 0;
  return tri * (cell + 4) + w * w * cell + wide + w * kMaxParts * 12 + w * 24;
}

enum class Compare { fp64, bits };  // how gpu.mcm_tiled compares candidates

enum class Arith {
  automatic,
  fp64
};  // gpu.mcm_tiled's values: int32 where proven exact, or doubles

struct TiledConfig {
  int split_target = 0;  // blocks per tile diagonal to aim for with split panels; 0: 2 per SM
  Compare compare = Compare::fp64;  // doubles: bits compares the bit patterns on the integer pipe
  Arith arith = Arith::automatic;   // auto: int32 when every candidate is provably below 2^31
};

// gpu.mcm_tiled computes in int32 (DPX add-min) when split_bound < 2^31 proves every value
// and candidate exact there.
inline bool tiled_uses_int(const ::mcm::Instance& x, const TiledConfig& c) {
  return c.arith == Arith::automatic && ::mcm::split_bound(x) < (unsigned __int128)(1) << 31;
}

inline constexpr int kTile = 64;  // gpu.mcm_tiled: side of a tile

// Points padded to a whole number of tiles (dimension 0 beyond n, never read by a real entry).
inline std::int64_t tiled_points(const ::mcm::Instance& x) {
  return (x.n() + 1 + kTile - 1) / kTile * kTile;
}

// What solve_mcm_tiled allocates on the device: costs (double) and splits (int32) in W × W,
// dimensions, the panel parts' scratch (up to 4 blocks per SM of a 132-SM GPU per tile), output.
inline std::uint64_t tiled_device_bytes(const ::mcm::Instance& x) {
  const auto W = std::uint64_t(tiled_points(x));
  return W * W * 12 + W * 8 + std::uint64_t(4 * 132 + W / kTile) * kTile * kTile * 12 + W * 24;
}

// Why gpu.mcm_tiled cannot solve `x`, or "": its doubles are exact only up to 2^53.
inline std::string why_not_tiled(const ::mcm::Instance& x) {
  return ::mcm::split_bound_excess(x, std::uint64_t(1) << 53, "2^53 (exact doubles)");
}

}  // namespace dpgpu::mcm_gpu
