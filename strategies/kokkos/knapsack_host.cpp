// knapsack_host.cpp — the Kokkos knapsack solver on the host backend (OpenMP).
#include "knapsack_driver.hpp"

namespace dpgpu::kokkos {

Outcome<knapsack::Solution> knapsack_host(const knapsack::Instance& x, Context& ctx) {
  return knapsack_solve<HostSpace, std::uint64_t, false>(host_space(), x, ctx);
}

}  // namespace dpgpu::kokkos
