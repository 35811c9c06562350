// knapsack_wavefront.hpp — plain C++ entry point of gpu.wavefront for the 0-1 knapsack. The
// registration (knapsack_params.cpp) and the tests call this; CUDA stays in knapsack_wavefront.cu.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "dpgpu/context.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_config.hpp"

namespace dpgpu::wavefront {

struct KnapsackWavefrontResult {
  std::int64_t value = 0;
  std::optional<std::vector<std::int32_t>> items;  // chosen items (ascending) when reconstruct
};

// The optimum of `x` by the paper's diagonal model: one launch per anti-diagonal of the
// items × (C + 1) table, a ring of max_weight + 2 diagonals on the device, decision bits of
// finished diagonals offloaded to the host (or kept on the device and traced there).
// Phases "alloc", "h2d", "compute", "d2h". Counters: kernel_launches, diagonals, window,
// cell_bits, ring_bytes, peak_device_bytes, bytes_offloaded, offload_chunks,
// offload_host_waits, offload_wait_s. Throws InputError (bad configuration, too many
// diagonals), OutOfMemory (the ring or the bits do not fit: bytes needed and available),
// Timeout (deadline), runtime_error (other CUDA errors).
KnapsackWavefrontResult knapsack_wavefront(const knapsack::Instance& x,
                                           const KnapsackWavefrontConfig& config, Context& ctx);

}  // namespace dpgpu::wavefront
