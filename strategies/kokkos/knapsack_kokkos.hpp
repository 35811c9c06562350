// knapsack_kokkos.hpp — plain C++ entry points and memory estimate of the Kokkos 0-1
// knapsack solver: gpu.rowwise's algorithm (each item's row fully parallel, one dispatch per
// item) with one decision bit per cell kept in device memory, the packing traced back there.
#pragma once
#include <cstdint>
#include <vector>

#include "dpgpu/context.hpp"
#include "dpgpu/solver.hpp"
#include "knapsack/knapsack.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {

// The solvers' parameters (bound in knapsack_params.cpp). Bits per work item (one word): by
// default 8 on the GPU (more work items in flight) and 64 on the host (cpu.omp_dp's 64-cell
// blocks). The GPU interleaves a word's capacities across the row (word t holds t, t + W,
// t + 2W, ... so consecutive work items touch consecutive cells); the host keeps them
// consecutive.
template <Space S>
struct KnapsackKokkosConfig {
  int word_bits = S == Space::Device ? 8 : 64;
};
inline std::vector<std::int64_t> compiled_word_bits(bool device) {
  return device ? std::vector<std::int64_t>{8, 32} : std::vector<std::int64_t>{32, 64};
}

// Two rows of cells, the decision bits of the items that fit, weights and values, the packing.
MemoryNeed knapsack_memory(const knapsack::Instance& x, bool device, int word_bits);

// Throws dpgpu::InputError for a word width that is not compiled for the space.
Outcome<knapsack::Solution> knapsack_host(const knapsack::Instance& x, int word_bits, Context& ctx);
Outcome<knapsack::Solution> knapsack_device(const knapsack::Instance& x, int word_bits,
                                            Context& ctx);

}  // namespace dpgpu::kokkos
