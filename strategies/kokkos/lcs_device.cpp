// lcs_device.cpp — the Kokkos LCS solver on the device backend (CUDA); compiled as CUDA.
#include "lcs_driver.hpp"
#include "lcs_kokkos.hpp"

namespace dpgpu::kokkos {

std::int64_t lcs_length(const std::string& a, const std::string& b,
                        const LcsKokkosConfig<Space::Device>& c, Context& ctx) {
  return lcs_length_on(device_space(ctx), a, b, c, ctx);
}

}  // namespace dpgpu::kokkos
