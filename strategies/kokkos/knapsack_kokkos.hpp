// knapsack_kokkos.hpp — plain C++ entry points and memory estimate of the Kokkos 0-1
// knapsack solver: gpu.rowwise's algorithm (each item's row fully parallel, one dispatch per
// item) with one decision bit per cell kept in device memory, the packing traced back there.
#pragma once
#include <cstdint>

#include "dpgpu/context.hpp"
#include "dpgpu/solver.hpp"
#include "knapsack/knapsack.hpp"

namespace dpgpu::kokkos {

// Bits per work item (one word): 8 on the GPU (more work items in flight), 64 on the host
// (a cache line of cells per item, as cpu.omp_dp's 64-cell blocks). The GPU interleaves a
// word's capacities across the row (word t holds t, t + W, t + 2W, ... so consecutive work
// items touch consecutive cells); the host keeps them consecutive.
struct KnapsackLayout {
  int bits_per_word;
  bool interleaved;
};
inline KnapsackLayout knapsack_layout(bool device) { return device ? KnapsackLayout{8, true} : KnapsackLayout{64, false}; }

// Two rows of cells, the decision bits of the items that fit, weights and values, the packing.
MemoryNeed knapsack_memory(const knapsack::Instance& x, bool device);

Outcome<knapsack::Solution> knapsack_host(const knapsack::Instance& x, Context& ctx);
Outcome<knapsack::Solution> knapsack_device(const knapsack::Instance& x, Context& ctx);

}  // namespace dpgpu::kokkos
