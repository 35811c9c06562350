// wavefront_counters.hpp — each gpu.wavefront adapter's own counters (knapsack, lcs, tsp),
// declared in its registration (knapsack_params.cpp, lcs_params.cpp, tsp_params.cpp) beside the
// engine's (engine/engine_counters.hpp), with kind and unit. Host C++ only.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::wavefront {

inline std::vector<CounterSpec> knapsack_wavefront_counters() {
  using namespace dpgpu::counters;
  return {
      count("window", "diagonals", "diagonals of the device ring"),
      count("cell_bits", "bits", "width of a DP cell (32 or 64)"),
      bytes("ring_bytes", "the ring of diagonals on the device"),
      count("offload_chunk_diagonals", "diagonals", "diagonals of decision bits per chunk"),
  };
}

inline std::vector<CounterSpec> lcs_wavefront_counters() {
  using namespace dpgpu::counters;
  return {
      bytes("decision_bits_bytes", "reconstruct: the decision bits of the table"),
      count("tile_rows", "tiles", "tile: tiles down the table"),
      count("tile_cols", "tiles", "tile: tiles across the table"),
      count("tile_width_effective", "columns", "tile: columns of a tile as run"),
      count("widest_diagonal_tiles", "tiles", "tile: tiles of the widest diagonal"),
      count("padded_cells", "cells", "tile: cells of the table padded to whole tiles"),
  };
}

inline std::vector<CounterSpec> tsp_wavefront_counters() {
  using namespace dpgpu::counters;
  return {
      bytes("host_bytes", "host memory of the solve (argmins included)"),
      bytes("argmin_bytes", "reconstruct: the argmins streamed to the host"),
      count("grid_blocks_cap", "blocks", "most blocks of one layer's launch"),
      seconds("offload_compute_wait_s", "offload_stream_wait_s under its earlier name"),
      bytes("cell_bytes", "one cost cell (4 or 8)"),
  };
}

// The TSP with gpus > 1 (tsp_multigpu.cu): per logical GPU, '#' its index.
inline std::vector<CounterSpec> tsp_multigpu_counters() {
  using namespace dpgpu::counters;
  return {
      count("gpus.logical", "GPUs", "logical GPUs each layer is split over"),
      count("gpus.physical", "GPUs", "cards under the logical GPUs"),
      seconds("gpu#.compute_s", "one GPU's layer kernels (its peer reads included)"),
      seconds("gpu#.idle_s",
              "one GPU's time between its first and last layer kernel not in a kernel (waiting "
              "for the other GPUs' layers or for its argmin copies)"),
      bytes("gpu#.exchange_bytes",
            "predecessor costs one GPU's kernels read from other GPUs' shares (peer access)"),
      bytes("gpu#.device_bytes", "device memory of one logical GPU (its shares, inputs)"),
  };
}

}  // namespace dpgpu::wavefront
