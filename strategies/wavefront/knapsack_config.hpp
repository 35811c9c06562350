// knapsack_config.hpp — gpu.wavefront for the 0-1 knapsack: its parameters, the geometry of
// the diagonal ring (window, padded diagonal length, decision-bit layout, offload chunks) and
// its memory estimate. Host C++ only: registration, CUDA driver and host-only tests share it.
//
// The table is active items (weight <= C) × capacities 0..C; cell (i, c) lies on
// anti-diagonal d = i + c and is stored at index i + kRowOffset of its diagonal's buffer.
// Cell (i, c) reads (i − 1, c) on diagonal d − 1 and (i − 1, c − w_i) on diagonal d − 1 − w_i,
// so a ring of window = w_max + 2 diagonal buffers holds everything still needed.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "knapsack/knapsack.hpp"
#include "offload_plan.hpp"

namespace dpgpu::wavefront {

struct KnapsackWavefrontConfig {
  int block = 256;                     // threads per block, a multiple of 32 in [32, 1024]
  bool offload = true;                 // decision bits of finished diagonals to pinned host memory
  std::string readonly = "ldg";        // item weights/values: texture | ldg | plain
  bool reconstruct = true;             // false: value only, no decision bits
  std::int64_t offload_diagonals = 0;  // diagonals per offloaded chunk; 0: about 4 MiB
  std::int64_t offload_slots = 4;      // pinned staging slots
};

inline void validate(const KnapsackWavefrontConfig& c) {
  if (c.block < 32 || c.block > 1024 || c.block % 32 != 0)
    throw InputError(
        "gpu.wavefront (knapsack): parameter 'block' must be a multiple of 32 in [32, 1024], got " +
        std::to_string(c.block));
  if (c.readonly != "texture" && c.readonly != "ldg" && c.readonly != "plain")
    throw InputError(
        "gpu.wavefront (knapsack): parameter 'readonly' must be texture, ldg or plain, got '" +
        c.readonly + "'");
  validate_offload("gpu.wavefront (knapsack)", "offload_diagonals", c.offload_diagonals,
                   c.offload_slots);
}

// Row i of the table sits at index i + kRowOffset of a diagonal buffer; index kRowOffset − 1
// is row −1 (all zero, never written), so row 0 needs no branch and warps stay aligned.
inline constexpr std::int64_t kRowOffset = 32;
// Diagonal numbers and ring slots are int32 on the device.
inline constexpr std::int64_t kMaxDiagonals = std::numeric_limits<std::int32_t>::max() - 1;

struct KnapsackGeometry {
  std::int64_t items = 0;               // active items (weight <= C) = table rows
  int cell_bytes = 4;                   // 4 or 8
  std::int64_t max_weight = 0;          // of the active items
  std::int64_t window = 0;              // diagonal buffers in the ring: max_weight + 2
  std::int64_t padded_rows = 0;         // items rounded up to the block
  std::int64_t diagonal_length = 0;     // cells per diagonal buffer: padded_rows + kRowOffset
  std::int64_t diagonals = 0;           // items + C
  std::int64_t words_per_diagonal = 0;  // decision bits: padded_rows / 32
  std::int64_t chunk_diagonals = 0;     // per offloaded chunk (offload && reconstruct)
  std::uint64_t ring_bytes() const {
    return std::uint64_t(window) * std::uint64_t(diagonal_length) * std::uint64_t(cell_bytes);
  }
  std::uint64_t bits_diagonal_bytes() const { return std::uint64_t(words_per_diagonal) * 4; }
};

inline KnapsackGeometry knapsack_geometry(const knapsack::Instance& x,
                                          const KnapsackWavefrontConfig& c) {
  KnapsackGeometry g;
  std::int64_t total = 0;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) {
      ++g.items;
      total += x.value[j];
      g.max_weight = std::max(g.max_weight, x.weight[j]);
    }
  if (g.items == 0) return g;
  g.cell_bytes = total <= std::numeric_limits<std::int32_t>::max() ? 4 : 8;
  g.window = g.max_weight + 2;
  g.padded_rows = (g.items + c.block - 1) / c.block * c.block;
  g.diagonal_length = g.padded_rows + kRowOffset;
  g.diagonals = g.items + x.capacity;
  if (g.diagonals > kMaxDiagonals)
    throw InputError("gpu.wavefront (knapsack): items + capacity = " + std::to_string(g.diagonals) +
                     " diagonals exceed the " + std::to_string(kMaxDiagonals) +
                     " of 32-bit diagonal numbers");
  g.words_per_diagonal = g.padded_rows / 32;
  if (c.reconstruct && c.offload)
    g.chunk_diagonals =
        offload_chunk_steps(c.offload_diagonals, g.bits_diagonal_bytes(), g.diagonals);
  return g;
}

// The decision bits: a diagonal of bits per diagonal, a taken flag per item.
inline DecisionBitsPlan decision_bits(const KnapsackGeometry& g, const KnapsackWavefrontConfig& c) {
  return {c.reconstruct,     c.offload,       g.diagonals,           g.bits_diagonal_bytes(),
          g.chunk_diagonals, c.offload_slots, std::uint64_t(g.items)};
}

// Exactly what a solve allocates on the device (DeviceBuffers) and on the host.
inline std::uint64_t device_bytes(const KnapsackGeometry& g, const KnapsackWavefrontConfig& c) {
  if (g.items == 0) return 0;
  const std::uint64_t rows = std::uint64_t(g.padded_rows);
  return g.ring_bytes() + rows * 4 + rows * std::uint64_t(g.cell_bytes)  // ring, weights, values
         + decision_bits(g, c).device_bytes();
}

inline std::uint64_t host_bytes(const KnapsackGeometry& g, const KnapsackWavefrontConfig& c) {
  if (g.items == 0) return 0;
  const std::uint64_t rows = std::uint64_t(g.padded_rows);
  return rows * 4 + rows * std::uint64_t(g.cell_bytes) + 8 + decision_bits(g, c).host_bytes();
}

}  // namespace dpgpu::wavefront
