// tsp_host.cpp — the Kokkos TSP solver on the host backend (OpenMP), subset-major cells.
#include "tsp_driver.hpp"

namespace dpgpu::kokkos {

Outcome<tsp::Solution> tsp_host(const tsp::Instance& x, std::uint64_t ranks_per_item, Context& ctx) {
  return tsp_solve<HostSpace, false>(host_space(), x, ranks_per_item, ctx, "kokkos.wavefront_host");
}

}  // namespace dpgpu::kokkos
