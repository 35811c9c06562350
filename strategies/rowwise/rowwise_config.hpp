// rowwise_config.hpp — gpu.rowwise's parameters, its geometry (padded rows, cell width,
// offload chunks) and its memory estimate. Host C++ only: the registration, the CUDA driver
// and the host-only tests share it, so `.memory()` and the driver cannot disagree.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "knapsack/knapsack.hpp"
#include "offload_plan.hpp"

namespace dpgpu::rowwise {

struct RowwiseConfig {
  int block = 256;  // threads per block, a multiple of 32 in [32, 1024]
  // Bits stay on the device by default: 1.9 GB at C = 10^7 fits, and offloading them through
  // host memory cost 25x the kernel on the H100 (strategies/rowwise/README.md).
  bool offload = false;            // true: decision bits to pinned host memory while computing
  std::string readonly = "ldg";    // item weights/values: texture | ldg | plain
  bool reconstruct = true;         // false: value only, no decision bits at all
  std::int64_t offload_rows = 0;   // rows per offloaded chunk; 0: about 4 MiB per chunk
  std::int64_t offload_slots = 4;  // pinned staging slots of one chunk each
};

inline void validate(const RowwiseConfig& c) {
  if (c.block < 32 || c.block > 1024 || c.block % 32 != 0)
    throw InputError("gpu.rowwise: parameter 'block' must be a multiple of 32 in [32, 1024], got " +
                     std::to_string(c.block));
  if (c.readonly != "texture" && c.readonly != "ldg" && c.readonly != "plain")
    throw InputError("gpu.rowwise: parameter 'readonly' must be texture, ldg or plain, got '" +
                     c.readonly + "'");
  wavefront::validate_offload("gpu.rowwise", "offload_rows", c.offload_rows, c.offload_slots);
}

// The items the DP has to look at: those with weight <= C (a heavier item can never be
// taken, so its row would equal the previous one). Kept in input order.
inline std::vector<std::int32_t> active_items(const knapsack::Instance& x) {
  std::vector<std::int32_t> a;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) a.push_back(static_cast<std::int32_t>(j));
  return a;
}

// 32-bit cells when the total value of the active items fits (no cell can exceed it).
inline bool fits_32_bits(const knapsack::Instance& x) {
  std::int64_t total = 0;  // fits int64: the instance is well formed
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) total += x.value[j];
  return total <= std::numeric_limits<std::int32_t>::max();
}

// Weights go to the GPU as int32, so the capacity (which bounds every active weight) must fit.
inline constexpr std::int64_t kMaxCapacity = std::numeric_limits<std::int32_t>::max() - 4096;

struct RowwiseGeometry {
  std::int64_t items = 0;          // active items = rows computed = kernel launches (DP)
  int cell_bytes = 4;              // 4 or 8
  int cells_per_thread = 4;        // 16 bytes per thread: 4 int32 or 2 int64 cells
  std::int64_t padded_cells = 0;   // C + 1 rounded up to block * cells_per_thread
  std::int64_t words_per_row = 0;  // decision bits: padded_cells / 32
  std::int64_t chunk_rows = 0;     // rows per offloaded chunk (offload && reconstruct)
  std::int64_t blocks = 0;         // grid of one row launch
  std::uint64_t row_bytes() const {
    return std::uint64_t(padded_cells) * std::uint64_t(cell_bytes);
  }
  std::uint64_t bits_row_bytes() const { return std::uint64_t(words_per_row) * 4; }
};

inline RowwiseGeometry rowwise_geometry(const knapsack::Instance& x, const RowwiseConfig& c) {
  RowwiseGeometry g;
  if (x.capacity > kMaxCapacity)
    throw InputError("gpu.rowwise: capacity " + std::to_string(x.capacity) + " exceeds the " +
                     std::to_string(kMaxCapacity) + " that 32-bit device weights allow");
  for (std::size_t j = 0; j < x.size(); ++j) g.items += x.weight[j] <= x.capacity;
  g.cell_bytes = fits_32_bits(x) ? 4 : 8;
  g.cells_per_thread = 16 / g.cell_bytes;
  const std::int64_t per_block = std::int64_t(c.block) * g.cells_per_thread;
  g.padded_cells = (x.capacity + 1 + per_block - 1) / per_block * per_block;
  g.words_per_row = g.padded_cells / 32;
  g.blocks = g.padded_cells / per_block;
  if (c.reconstruct && c.offload && g.items > 0)
    g.chunk_rows = wavefront::offload_chunk_steps(c.offload_rows, g.bits_row_bytes(), g.items);
  return g;
}

// The decision bits: a row of bits per item, a taken flag per item.
inline wavefront::DecisionBitsPlan decision_bits(const RowwiseGeometry& g, const RowwiseConfig& c) {
  return {c.reconstruct,         c.offload,    g.items,
          g.bits_row_bytes(),    g.chunk_rows, c.offload_slots,
          std::uint64_t(g.items)};
}

// Exactly what a solve allocates: device (DeviceBuffers) and host (pinned staging, the
// host copy of the decision bits, and the small upload buffers).
inline std::uint64_t device_bytes(const RowwiseGeometry& g, const RowwiseConfig& c) {
  if (g.items == 0) return 0;
  const std::uint64_t n = std::uint64_t(g.items);
  return 2 * g.row_bytes()                  // two value rows
         + n * 4                            // weights (int32)
         + n * std::uint64_t(g.cell_bytes)  // values (1 or 2 words each)
         + decision_bits(g, c).device_bytes();
}

inline std::uint64_t host_bytes(const RowwiseGeometry& g, const RowwiseConfig& c) {
  if (g.items == 0) return 0;
  const std::uint64_t n = std::uint64_t(g.items);
  return n * 4 + n * std::uint64_t(g.cell_bytes) + 8  // pinned uploads + result
         + decision_bits(g, c).host_bytes();
}

}  // namespace dpgpu::rowwise
