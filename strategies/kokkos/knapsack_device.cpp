// knapsack_device.cpp — the Kokkos knapsack solver on the device backend (CUDA); compiled as CUDA.
#include "knapsack_driver.hpp"

namespace dpgpu::kokkos {

Outcome<knapsack::Solution> knapsack_device(const knapsack::Instance& x, int word_bits,
                                            Context& ctx) {
  if (word_bits == 8)
    return knapsack_solve<Kokkos::Cuda, std::uint8_t, true>(device_space(ctx), x, ctx);
  if (word_bits == 32)
    return knapsack_solve<Kokkos::Cuda, std::uint32_t, true>(device_space(ctx), x, ctx);
  throw dpgpu::InputError("kokkos.wavefront: parameter 'word_bits' must be 8 or 32, got " +
                          std::to_string(word_bits));
}

}  // namespace dpgpu::kokkos
