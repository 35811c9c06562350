// tsp_host.cpp — the Kokkos TSP solver on the host backend (OpenMP), subset-major cells.
#include "tsp_driver.hpp"

namespace dpgpu::kokkos {

Outcome<tsp::Solution> tsp_solve(const tsp::Instance& x, const TspKokkosConfig<Space::Host>& c,
                                 Context& ctx) {
  return tsp_solve_on<HostSpace, false>(host_space(), x, c, ctx);
}

}  // namespace dpgpu::kokkos
