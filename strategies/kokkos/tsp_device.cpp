// tsp_device.cpp — the Kokkos TSP solver on the device backend (CUDA), position-major cells;
// compiled as CUDA.
#include "tsp_driver.hpp"

namespace dpgpu::kokkos {

Outcome<tsp::Solution> tsp_device(const tsp::Instance& x, Context& ctx) {
  return tsp_solve<Kokkos::Cuda, true>(device_space(ctx), x, ctx, "kokkos.wavefront");
}

}  // namespace dpgpu::kokkos
