// mcm_host.cpp — kokkos.mcm_host: the matrix-chain diagonal DP on the host backend (OpenMP).
#include "mcm_driver.hpp"

namespace dpgpu::kokkos {

Outcome<::mcm::Solution> mcm_solve(const ::mcm::Instance& x, const McmKokkosConfig<Space::Host>& c,
                                   Context& ctx) {
  return mcm_solve_on(host_space(), x, c, ctx);
}

}  // namespace dpgpu::kokkos
