// lcs_device.cpp — the Kokkos LCS solver on the device backend (CUDA); compiled as CUDA.
#define DPGPU_KOKKOS_LCS_ROWS DPGPU_KOKKOS_ROWS(4) DPGPU_KOKKOS_ROWS(8) DPGPU_KOKKOS_ROWS(16) DPGPU_KOKKOS_ROWS(32)
#include "lcs_driver.hpp"
#include "lcs_kokkos.hpp"

namespace dpgpu::kokkos {

std::int64_t lcs_length_device(const std::string& a, const std::string& b, const LcsKokkosConfig& c, Context& ctx) {
  return lcs_length(device_space(ctx), a, b, c, Space::Device, "kokkos.wavefront", ctx);
}

}  // namespace dpgpu::kokkos
