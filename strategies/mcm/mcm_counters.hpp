// mcm_counters.hpp — the counters gpu.mcm (mcm_gpu.cu) and gpu.mcm_tiled (mcm_tiled.cu) set,
// declared in their registrations (mcm_params.cpp) with kind and unit. Host C++ only.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::mcm_gpu {

inline std::vector<CounterSpec> mcm_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "launches: one per diagonal, calibration included"),
      count("cell_bits", "bits", "width of a cost cell (32 or 64)"),
      count("escaped_cells", "cells", "int32 cells that escaped to the wide table"),
      count("ranges", "ranges", "ranges of the diagonal table used"),
      count("range#_from", "diagonals", "the first diagonal of a range"),
      count("range#_kernel", "kernel index", "a range's kernel (0 thread, 1 block, 2 blocks)"),
      count("range#_threads", "threads", "a range's threads per block"),
      count("range#_blocks", "blocks", "a range's blocks per entry"),
      count("calibrated_diagonals", "diagonals", "calibrate: diagonals timed"),
      count("calibration_launches", "launches", "calibrate: launches that timed a candidate"),
      seconds("calibration_timed_s", "calibrate: time of the timed launches"),
      seconds("calibration_extra_s", "calibrate: time of the launches that lost"),
      count("calibration_flat_samples", "samples", "calibrate: samples too close to call"),
  };
}

inline std::vector<CounterSpec> mcm_tiled_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "launches: two per tile diagonal"),
      count("value_bits", "bits", "width of a cost value (32: int32, 64: double)"),
      count("tile", "entries", "side of a tile"),
      count("tile_diagonals", "diagonals", "diagonals of tiles"),
      count("split_target", "blocks", "blocks a tile diagonal aims to fill"),
      count("panel_splits", "splits", "split evaluations in panel products"),
  };
}

}  // namespace dpgpu::mcm_gpu
