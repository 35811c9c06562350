// tsp_device.cpp — the Kokkos TSP solver on the device backend (CUDA), position-major cells;
// compiled as CUDA.
#include "tsp_driver.hpp"

namespace dpgpu::kokkos {

Outcome<tsp::Solution> tsp_device(const tsp::Instance& x, std::uint64_t ranks_per_item, Context& ctx) {
  return tsp_solve<Kokkos::Cuda, true>(device_space(ctx), x, ranks_per_item, ctx, "kokkos.wavefront");
}

}  // namespace dpgpu::kokkos
