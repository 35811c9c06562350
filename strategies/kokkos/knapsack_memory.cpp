// knapsack_memory.cpp — the memory estimate of both Kokkos knapsack solvers (every build).
#include "knapsack_kokkos.hpp"

namespace dpgpu::kokkos {

MemoryNeed knapsack_memory(const knapsack::Instance& x, bool device, int word_bits) {
  std::uint64_t rows = 0, value_bound = 0;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) ++rows, value_bound += std::uint64_t(x.value[j]);
  const std::uint64_t cell = value_bound <= 0x7fffffffu ? 4 : 8;
  const std::uint64_t words = (std::uint64_t(x.capacity) + 1 + word_bits - 1) / word_bits;
  const std::uint64_t bytes =
      2 * (std::uint64_t(x.capacity) + 1) * cell + rows * words * (word_bits / 8) + rows * 9;
  return device ? MemoryNeed{rows * 5 + x.size() * 4, bytes} : MemoryNeed{bytes + x.size() * 4, 0};
}

}  // namespace dpgpu::kokkos
