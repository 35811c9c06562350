// lcs_wavefront.hpp — plain C++ entry point of gpu.wavefront for LCS (length, and with
// `reconstruct` an LCS string). The
// registration (lcs_params.cpp) and the tests call this; CUDA stays inside lcs_wavefront.cu.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpgpu/context.hpp"
#include "lcs_config.hpp"
#include "lcs_geometry.hpp"  // kMaxLength

namespace dpgpu::wavefront {

// For tests: what tile mode leaves in its boundaries at the end. The table's rows run down
// the row string (a, or b when b is longer: rows_are_a false), both padded with symbols that
// match nothing; last_row[j] = H[N][j + 1] over the padded columns, last_col[i] = H[i + 1][M]
// over the padded rows. So last_row[j] = LCS(row string, first j + 1 symbols of the column
// string) and likewise for last_col, constant across the padding.
struct LcsTileBoundaries {
  bool rows_are_a = true;
  std::vector<int> last_row, last_col;
};

// Length of a longest common subsequence of `a` and `b` (any byte values), computed on the
// GPU with `config` on ctx.stream(). Phases "alloc", "h2d", "compute", "d2h"; counters
// "kernel_launches", "diagonals", "peak_device_bytes" (and, in tile mode, the geometry).
// Returns 0 without touching the GPU when either string is empty.
// Throws dpgpu::InputError for an invalid configuration (naming the parameter) or a string
// longer than kMaxLength, dpgpu::OutOfMemory when device memory runs out, dpgpu::Timeout
// once the context's deadline has passed, std::runtime_error for any other CUDA failure.
// `boundaries` (tile mode only, may be null) receives the final boundaries, copied back in
// the "d2h" phase.
std::int64_t lcs_wavefront_length(const std::string& a, const std::string& b,
                                  const LcsWavefrontConfig& config, dpgpu::Context& ctx,
                                  LcsTileBoundaries* boundaries = nullptr);

// What a solve returns: the length, and with config.reconstruct an LCS string of that length.
struct LcsWavefrontResult {
  std::int64_t length = 0;
  std::optional<std::string> subsequence;  // set iff config.reconstruct
};

// As above; with config.reconstruct the kernels also emit one decision bit per cell, which
// reach host memory either through the asynchronous offload ring (config.offload: device
// holds two chunks, engine/host_offload.cuh) or in one copy at the end (offload false: all
// bits on the device; dpgpu::OutOfMemory naming the bytes needed and free when they do not
// fit), and the host traces an LCS back (phase "traceback"). Extra counters then:
// "decision_bits_bytes", "bytes_offloaded", "offload_chunks", "offload_host_waits",
// "offload_wait_s".
LcsWavefrontResult lcs_wavefront(const std::string& a, const std::string& b,
                                 const LcsWavefrontConfig& config, dpgpu::Context& ctx,
                                 LcsTileBoundaries* boundaries = nullptr);

}  // namespace dpgpu::wavefront
