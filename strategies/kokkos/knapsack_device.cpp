// knapsack_device.cpp — the Kokkos knapsack solver on the device backend (CUDA); compiled as CUDA.
#include "knapsack_driver.hpp"

namespace dpgpu::kokkos {

Outcome<knapsack::Solution> knapsack_device(const knapsack::Instance& x, Context& ctx) {
  return knapsack_solve<Kokkos::Cuda, std::uint8_t, true>(device_space(ctx), x, ctx);
}

}  // namespace dpgpu::kokkos
