// hierarchical_config.hpp — the parameters of gpu.hierarchical (each field one parameter of
// the registration in hierarchical_params.cpp) and the rules they obey. Host-only, so CPU-only
// builds still register and validate the solver.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace dpgpu::hierarchical {

struct HierarchicalConfig {
  std::int64_t cutoff = 256;         // both sides <= cutoff: SIMPLE-LCS on the CPU
  std::int64_t gpu_cutoff = 131072;  // longest side <= gpu_cutoff (and > cutoff): the GPU
  std::int64_t grid = 512;           // GPU level 1: side of a block in cells (the paper's m)
  std::int64_t sub = 4;              // GPU levels 2/3: side of a thread's sub-block
};

// Threads per CUDA block: one per sub-block column of a level-1 block.
inline std::int64_t threads_per_block(const HierarchicalConfig& c) { return c.grid / c.sub; }

// Empty when valid, else what is wrong, naming the parameters in quotes (so `dpgpu check`
// points at the key): the registration's rule, and the driver's guard for direct callers.
inline std::string validate(const HierarchicalConfig& c) {
  if (c.sub != 2 && c.sub != 4 && c.sub != 8 && c.sub != 16)
    return "'sub' must be 2, 4, 8 or 16 (got " + std::to_string(c.sub) + ")";
  if (c.grid % c.sub != 0)
    return "'grid' (" + std::to_string(c.grid) + ") must be a multiple of 'sub' (" +
           std::to_string(c.sub) + ")";
  if (threads_per_block(c) > 1024)
    return "'grid' / 'sub' (" + std::to_string(threads_per_block(c)) +
           " threads per block) must be at most 1024";
  if (c.gpu_cutoff < c.cutoff)
    return "'gpu_cutoff' (" + std::to_string(c.gpu_cutoff) + ") must be at least 'cutoff' (" +
           std::to_string(c.cutoff) + ")";
  return {};
}

// Dynamic shared memory of one level-1 block (level_kernels.cuh), 4-byte words: the exchange
// of right columns (2 grid), the block's row symbols (grid), its top row and left column
// (grid + 1 each).
inline std::size_t diagonal_shared_bytes(std::int64_t grid) {
  return std::size_t(2 * (grid + 1) + 2 * grid + grid) * 4;
}

// Device bytes of a solve: both strings, the level-1 frontier (one (grid + 1)-score slot per
// block row and block column), and the input/output boundaries.
inline std::uint64_t device_bytes(std::uint64_t n, std::uint64_t m, const HierarchicalConfig& c) {
  const std::uint64_t g = std::uint64_t(c.grid);
  const std::uint64_t side = std::min<std::uint64_t>(std::uint64_t(c.gpu_cutoff), std::max(n, m));
  const std::uint64_t blocks = (side + g - 1) / g;
  return n + m + 2 * blocks * (g + 1) * 4 + 2 * side * 4;
}

}  // namespace dpgpu::hierarchical
