// knapsack_memory.cpp — the memory estimate of both Kokkos knapsack solvers (every build).
#include "knapsack_kokkos.hpp"

namespace dpgpu::kokkos {

MemoryNeed knapsack_memory(const knapsack::Instance& x, bool device) {
  const KnapsackLayout layout = knapsack_layout(device);
  std::uint64_t rows = 0, value_bound = 0;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) ++rows, value_bound += std::uint64_t(x.value[j]);
  const std::uint64_t cell = value_bound <= 0x7fffffffu ? 4 : 8;
  const std::uint64_t words = (std::uint64_t(x.capacity) + 1 + layout.bits_per_word - 1) / layout.bits_per_word;
  const std::uint64_t bytes = 2 * (std::uint64_t(x.capacity) + 1) * cell + rows * words * (layout.bits_per_word / 8) + rows * 9;
  return device ? MemoryNeed{rows * 5 + x.size() * 4, bytes} : MemoryNeed{bytes + x.size() * 4, 0};
}

}  // namespace dpgpu::kokkos
