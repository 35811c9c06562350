// myers_counters.hpp — the counters gpu.myers sets, declared in its registration.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::myers {

inline std::vector<CounterSpec> myers_counters() {
  using namespace dpgpu::counters;
  return {
      count("kernel_launches", "launches", "kernel launches of the passes"),
      count("stripes", "stripes", "warp stripes over all launches"),
      count("words_per_thread", "words", "64-bit words per lane (as fitted to shared memory)"),
      count("warps_per_block", "warps", "warps per block (as fitted to shared memory)"),
      count("sigma", "symbols", "distinct symbols of the string along the steps"),
      count("thread_pairs", "pairs", "pairs run one per thread (the rest as warp stripes)"),
      count("levels", "levels", "script: Hirschberg levels (batches of passes)"),
      count("leaves", "subproblems", "script: subproblems aligned on the host"),
      count("pass_cells", "cells", "script: DP cells of all passes"),
      count("leaf_cells", "cells", "script: DP cells of the host's leaves"),
  };
}

}  // namespace dpgpu::myers
