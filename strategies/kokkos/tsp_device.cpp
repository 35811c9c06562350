// tsp_device.cpp — the Kokkos TSP solver on the device backend (CUDA), position-major cells;
// compiled as CUDA.
#include "tsp_driver.hpp"

namespace dpgpu::kokkos {

Outcome<tsp::Solution> tsp_solve(const tsp::Instance& x, const TspKokkosConfig<Space::Device>& c,
                                 Context& ctx) {
  return tsp_solve_on<Kokkos::Cuda, true>(device_space(ctx), x, c, ctx);
}

}  // namespace dpgpu::kokkos
