// pipeline_counters.hpp — the counters the pipeline strategy's solvers set (sdp_gpu.cu,
// knapsack_gpu.cu), declared in their registrations (pipeline_params.cpp) with kind and unit.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::pipeline {

// Every sdp solver of the strategy (gpu.prefix and gpu.inner_parallel set only these).
inline std::vector<CounterSpec> sdp_counters() {
  using namespace dpgpu::counters;
  return {
      count("k", "offsets", "offsets of the instance"),
      count("max_p", "stages", "the largest fold the correctness condition allows"),
      count("cell_bits", "bits", "width of a table cell (32 or 64)"),
      count("steps", "steps", "steps the solve ran"),
      count("step_ns", "ns", "mean time of one step"),
      count("threads", "threads", "threads of one step"),
      count("kernel_launches", "launches", "kernel launches, the checksum's included"),
  };
}

// gpu.pipeline2x2 also says its fold (1).
inline std::vector<CounterSpec> fold_2x2_counters() {
  return {counters::count("p", "stages", "fold: 1 (two stages per thread)")};
}

// The p-fold pipeline's own: its fold, the paper's step count and its launch geometry (sdp and
// knapsack).
inline std::vector<CounterSpec> fold_counters() {
  using namespace dpgpu::counters;
  return {
      count("p", "stages", "fold p: p·k element-stages per step"),
      count("paper_steps", "steps", "steps by the paper's formula"),
      count("blocks", "blocks", "blocks of the launch"),
      count("block", "threads", "threads per block"),
      count("per_thread", "stages", "element-stages per thread"),
  };
}

// The knapsack pipeline's table.
inline std::vector<CounterSpec> knapsack_table_counters() {
  using namespace dpgpu::counters;
  return {count("rows", "rows", "DP rows (items that fit)"),
          count("width", "cells", "cells of a row (capacity + 1)")};
}

}  // namespace dpgpu::pipeline
