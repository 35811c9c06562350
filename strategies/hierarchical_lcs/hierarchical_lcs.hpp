// hierarchical_lcs.hpp — gpu.hierarchical: the Chowdhury–Ramachandran recursion on the CPU
// (lcs/chowdhury.hpp) with GPU levels beneath it (level_kernels.cuh). CUDA-free declarations;
// defined in hierarchical_lcs.cu, which only CUDA builds compile.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "dpgpu/context.hpp"
#include "hierarchical_config.hpp"

namespace dpgpu::hierarchical {

struct HierarchicalCounters {
  std::uint64_t gpu_subproblems = 0;  // regions solved on the GPU
  std::uint64_t gpu_launches = 0;     // level-1 diagonals (kernel launches)
  std::uint64_t gpu_blocks = 0;       // level-1 blocks (one CUDA block each)
  std::uint64_t gpu_subblocks = 0;    // level-2 sub-blocks (one thread-step each)
  std::uint64_t gpu_cells = 0;        // level-3 cells computed, padding included
  std::uint64_t gpu_real_cells = 0;   // of which inside the regions
  std::uint64_t cpu_cells = 0;        // SIMPLE-LCS cells (forward and retrace)
  std::uint64_t h2d_bytes = 0, d2h_bytes = 0;
  double gpu_s = 0;  // host wall time inside GPU subproblems (copies, launches, waiting)
  std::uint64_t peak_host_bytes = 0;
};

struct HierarchicalResult {
  std::string subsequence;
  HierarchicalCounters counters;
};

// Why this GPU cannot run `c` (a level-1 block of `grid` needs more shared memory than it
// gives one block), or "": the registration's GPU rule, asked where a GPU is usable.
std::string why_not_on_this_gpu(const HierarchicalConfig& c);

// One LCS of a and b; throws dpgpu::InputError for an invalid configuration.
HierarchicalResult hierarchical_lcs(std::string_view a, std::string_view b,
                                    const HierarchicalConfig& c, Context& ctx);

}  // namespace dpgpu::hierarchical
