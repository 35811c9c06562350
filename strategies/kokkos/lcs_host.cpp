// lcs_host.cpp — the Kokkos LCS solver on the host backend (OpenMP).
#define DPGPU_KOKKOS_LCS_ROWS DPGPU_KOKKOS_ROWS(64) DPGPU_KOKKOS_ROWS(128) DPGPU_KOKKOS_ROWS(256) DPGPU_KOKKOS_ROWS(512)
#include "lcs_driver.hpp"
#include "lcs_kokkos.hpp"

namespace dpgpu::kokkos {

std::int64_t lcs_length_host(const std::string& a, const std::string& b, const LcsKokkosConfig& c, Context& ctx) {
  return lcs_length(host_space(), a, b, c, Space::Host, "kokkos.wavefront_host", ctx);
}

}  // namespace dpgpu::kokkos
