// lcs_kokkos.hpp — plain C++ entry points of the Kokkos LCS solvers (length only, as
// gpu.wavefront's default), one per execution space; the source is one (lcs_driver.hpp).
#pragma once
#include <cstdint>
#include <string>

#include "dpgpu/context.hpp"
#include "lcs_kokkos_config.hpp"

namespace dpgpu::kokkos {

// Length of a longest common subsequence of a and b. Phases "alloc", "h2d", "compute", "d2h";
// counters "kernel_launches" (dispatches), "diagonals", "peak_device_bytes" (device).
// Throws dpgpu::InputError for a bad configuration or strings too long, dpgpu::Timeout once
// the context's deadline has passed. The device one exists only in builds with Kokkos's CUDA
// backend (lcs_device.cpp).
std::int64_t lcs_length(const std::string& a, const std::string& b,
                        const LcsKokkosConfig<Space::Host>& c, Context& ctx);
std::int64_t lcs_length(const std::string& a, const std::string& b,
                        const LcsKokkosConfig<Space::Device>& c, Context& ctx);

}  // namespace dpgpu::kokkos
