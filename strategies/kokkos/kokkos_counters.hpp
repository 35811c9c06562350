// kokkos_counters.hpp — the counters the Kokkos solvers set (the *_driver.hpp solves), declared
// in their registrations (*_params.cpp) with kind and unit; the same for both spaces.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::kokkos {

inline std::vector<CounterSpec> knapsack_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "dispatches: one per item and the traceback"),
      count("rows", "rows", "DP rows (items)"),
      bytes("decision_bits_bytes", "the decision bits kept for the traceback"),
      count("word_bits", "bits", "decision bits per work item"),
  };
}

inline std::vector<CounterSpec> lcs_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "dispatches: one per diagonal"),
      count("diagonals", "diagonals", "anti-diagonals of tiles (tile) or cells (cell)"),
      count("tile_height", "rows", "tile: rows of a tile"),
      count("tile_width", "columns", "tile: columns of a tile"),
      count("team_size", "threads", "tile: threads of a team"),
      count("columns_per_step", "columns", "tile: columns a thread computes per step"),
  };
}

inline std::vector<CounterSpec> mcm_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "dispatches: one per diagonal"),
      count("cell_bits", "bits", "width of a cost cell (32 or 64)"),
  };
}

inline std::vector<CounterSpec> tsp_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "dispatches: one per layer and the walk back"),
      count("layers", "layers", "subset-size layers"),
      bytes("argmin_bytes", "the argmins kept for the tour"),
      count("ranks_per_item", "subsets", "subsets a work item computes"),
      count("team_size", "threads", "threads of a team"),
      count("teams_cap", "teams", "most teams of one dispatch"),
  };
}

}  // namespace dpgpu::kokkos
