// lcs_kokkos.hpp — plain C++ entry points of the Kokkos LCS solvers (length only, as
// gpu.wavefront's default), one per execution space; the source is one (lcs_driver.hpp).
#pragma once
#include <cstdint>
#include <string>

#include "dpgpu/context.hpp"
#include "lcs_config.hpp"

namespace dpgpu::kokkos {

// Length of a longest common subsequence of a and b. Phases "alloc", "h2d", "compute", "d2h";
// counters "kernel_launches" (dispatches), "diagonals", "peak_device_bytes" (device).
// Throws dpgpu::InputError for a bad configuration or strings too long, dpgpu::Timeout once
// the context's deadline has passed.
std::int64_t lcs_length_host(const std::string& a, const std::string& b, const LcsKokkosConfig& c, Context& ctx);
std::int64_t lcs_length_device(const std::string& a, const std::string& b, const LcsKokkosConfig& c, Context& ctx);

}  // namespace dpgpu::kokkos
