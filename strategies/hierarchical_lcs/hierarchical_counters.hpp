// hierarchical_counters.hpp — the counters gpu.hierarchical sets (hierarchical_params.cpp's
// solve), declared in its registration with kind and unit. Host C++ only.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::hierarchical {

inline std::vector<CounterSpec> hierarchical_counters() {
  using namespace dpgpu::counters;
  return {
      count("gpu_subproblems", "regions", "regions solved on the GPU"),
      count("kernel_launches", "launches", "GPU kernel launches"),
      count("level1_blocks", "blocks", "level-1 grid blocks computed"),
      count("level2_subblocks", "sub-blocks", "level-2 sub-blocks computed"),
      count("level3_cells", "cells", "cells the GPU computed, padding included"),
      count("gpu_real_cells", "cells", "cells of the GPU's regions, padding excluded"),
      count("cpu_cells", "cells", "cells the CPU's two-row DP computed"),
      bytes("h2d_bytes", "copied to the GPU"),
      bytes("d2h_bytes", "copied back from the GPU"),
      seconds("gpu_s", "time in the GPU's regions"),
      bytes("peak_host_bytes", "most host memory the recursion held at once"),
  };
}

}  // namespace dpgpu::hierarchical
