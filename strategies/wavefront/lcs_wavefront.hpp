// lcs_wavefront.hpp — plain C++ entry point of gpu.wavefront for LCS (length only). The
// registration (lcs_params.cpp) and the tests call this; CUDA stays inside lcs_wavefront.cu.
#pragma once
#include <cstdint>
#include <string>

#include "dpgpu/context.hpp"
#include "lcs_config.hpp"

namespace dpgpu::wavefront {

// Length of a longest common subsequence of `a` and `b` (any byte values), computed on the
// GPU with `config` on ctx.stream(). Phases "alloc", "h2d", "compute", "d2h"; counters
// "kernel_launches", "diagonals", "peak_device_bytes" (and, in tile mode, the geometry).
// Returns 0 without touching the GPU when either string is empty.
// Throws dpgpu::InputError for an invalid configuration (naming the parameter) or a string
// longer than kMaxLength, dpgpu::OutOfMemory when device memory runs out, dpgpu::Timeout
// once the context's deadline has passed, std::runtime_error for any other CUDA failure.
std::int64_t lcs_wavefront_length(const std::string& a, const std::string& b,
                                  const LcsWavefrontConfig& config, dpgpu::Context& ctx);

}  // namespace dpgpu::wavefront
