// bitlcs_counters.hpp — the counters gpu.bitparallel sets (ctx.set, ctx.add), declared in its
// registration (bitlcs_params.cpp) with kind and unit. Host C++ only.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::bitlcs {

inline std::vector<CounterSpec> bitlcs_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "kernel launches of the passes"),
      count("stripes", "stripes", "warp stripes over all launches (one GPU)"),
      count("words_per_thread", "words", "lane words per lane (as fitted to shared memory)"),
      count("warps_per_block", "warps", "warps per block (as fitted to shared memory)"),
      count("word_bits", "bits", "bits of a lane word"),
      count("sigma", "symbols", "distinct symbols of the pair"),
      count("levels", "levels", "reconstruct: Hirschberg levels"),
      count("leaves", "subproblems", "reconstruct: subproblems traced back on the host"),
      bytes("leaf_bytes", "reconstruct: the rows a leaf stores"),
      count("cells_computed", "cells", "reconstruct: DP cells over all passes"),
      count("gpus.physical", "GPUs", "physical GPUs under the logical ones (multi-GPU runs)"),
      count("gpus.logical", "GPUs", "logical GPUs the pass is split over (multi-GPU runs)"),
      count("launch_rows", "rows", "rows per launch (multi-GPU schedule)"),
      count("skew_rows", "rows", "rows one GPU runs behind the one before (multi-GPU schedule)"),
      count("launches_per_gpu", "launches", "launches per GPU and pass (multi-GPU schedule)"),
      seconds("gpu#.compute_s", "one logical GPU's kernel time"),
      seconds("gpu#.peer_s", "one logical GPU's carry copies to the next"),
      seconds("gpu#.wait_s", "one logical GPU's time between its launches"),
      seconds("gpu#.fill_s", "time before one logical GPU's first launch"),
      seconds("gpu#.drain_s", "time after one logical GPU's last launch"),
      // The declared ceiling (bitlcs_ceiling.hpp: formula, rate and its source).
      count("ops_per_lane_word", "int32 ops",
            "int32 ops the ceiling counts per lane word (6 or 3, plus 2 per step and lane / W)"),
      rate("ceiling_cups", "cells",
           "declared ceiling: cards x SMs x peak clock x 64 int32 ops/SM/clk (CUDA Programming "
           "Guide, cc 9.0) x word bits / ops_per_lane_word"),
      seconds("kernel_s", "device time of the passes' kernels (event-timed; multi-GPU: the span)"),
      ratio("ceiling_share", "cells / kernel_s / ceiling_cups: the kernels' share of the ceiling"),
  };
}

}  // namespace dpgpu::bitlcs
