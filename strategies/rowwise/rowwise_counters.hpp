// rowwise_counters.hpp — the counters gpu.rowwise sets (rowwise_knapsack.cu, and the wavefront
// engine's host offload), declared in its registration (rowwise_params.cpp). Host C++ only.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"
#include "engine_counters.hpp"

namespace dpgpu::rowwise {

inline std::vector<CounterSpec> rowwise_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "kernel launches: one per item row"),
      count("rows", "rows", "DP rows (items)"),
      count("offload_chunk_rows", "rows", "rows of decision bits per offloaded chunk"),
      count("cell_bits", "bits", "width of a DP cell (32 or 64)"),
      count("padded_cells", "cells", "cells of a row padded to whole blocks"),
  };
}

}  // namespace dpgpu::rowwise
