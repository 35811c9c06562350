// knapsack_host.cpp — the Kokkos knapsack solver on the host backend (OpenMP).
#include "knapsack_driver.hpp"

namespace dpgpu::kokkos {

Outcome<knapsack::Solution> knapsack_host(const knapsack::Instance& x, int word_bits,
                                          Context& ctx) {
  if (word_bits == 32) return knapsack_solve<HostSpace, std::uint32_t, false>(host_space(), x, ctx);
  if (word_bits == 64) return knapsack_solve<HostSpace, std::uint64_t, false>(host_space(), x, ctx);
  throw dpgpu::InputError("kokkos.wavefront_host: parameter 'word_bits' must be 32 or 64, got " +
                          std::to_string(word_bits));
}

}  // namespace dpgpu::kokkos
