// lcs_host.cpp — the Kokkos LCS solver on the host backend (OpenMP).
#include "lcs_driver.hpp"
#include "lcs_kokkos.hpp"

namespace dpgpu::kokkos {

std::int64_t lcs_length(const std::string& a, const std::string& b,
                        const LcsKokkosConfig<Space::Host>& c, Context& ctx) {
  return lcs_length_on(host_space(), a, b, c, ctx);
}

}  // namespace dpgpu::kokkos
