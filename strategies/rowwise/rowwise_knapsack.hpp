// rowwise_knapsack.hpp — plain C++ entry point of gpu.rowwise (0-1 knapsack). The registration
// (rowwise_params.cpp) and the tests call this; CUDA stays inside rowwise_knapsack.cu.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "dpgpu/context.hpp"
#include "knapsack/knapsack.hpp"
#include "rowwise_config.hpp"

namespace dpgpu::rowwise {

struct RowwiseResult {
  std::int64_t value = 0;
  std::optional<std::vector<std::int32_t>> items;  // chosen items (ascending) when reconstruct
};

// The optimum of `x`, one kernel launch per item (weight <= C) on ctx.stream(): row i of the
// DP computed from row i-1 for every capacity at once. With `reconstruct`, one decision bit
// per cell is kept (offloaded to the host per chunk of rows when `offload`, else kept on the
// device and traced there) and the chosen items are rebuilt from them.
// Phases "alloc", "h2d", "compute", "d2h". Counters: kernel_launches, rows, cell_bits,
// padded_cells, peak_device_bytes, bytes_offloaded, offload_chunks, offload_host_waits,
// offload_wait_s. Throws InputError (bad configuration, capacity beyond kMaxCapacity),
// OutOfMemory (device or pinned memory), Timeout (deadline), runtime_error (other CUDA errors).
RowwiseResult rowwise_knapsack(const knapsack::Instance& x, const RowwiseConfig& config,
                               Context& ctx);

}  // namespace dpgpu::rowwise
