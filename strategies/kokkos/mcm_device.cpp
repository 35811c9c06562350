// mcm_device.cpp — kokkos.mcm: the matrix-chain diagonal DP on the device backend (CUDA);
// compiled as CUDA.
#include "mcm_driver.hpp"

namespace dpgpu::kokkos {

Outcome<::mcm::Solution> mcm_solve(const ::mcm::Instance& x,
                                   const McmKokkosConfig<Space::Device>& c, Context& ctx) {
  return mcm_solve_on(device_space(ctx), x, c, ctx);
}

}  // namespace dpgpu::kokkos
