// tsp_wavefront.hpp — plain C++ entry point of gpu.wavefront for the TSP (Held-Karp by
// subset-size layers). The registration (tsp_params.cpp) and the tests call this; CUDA stays
// inside tsp_wavefront.cu.
#pragma once
#include <cstdint>
#include <vector>

#include "dpgpu/context.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"

namespace dpgpu::wavefront {

struct TspWavefrontResult {
  std::int64_t cost = 0;           // optimal closed-tour cost (0 for n = 1)
  std::vector<std::int32_t> tour;  // starts at city 0; empty when config.reconstruct is false
  int cell_bytes = 0;              // 4 (int32 costs) or 8 (int64), 0 when no layer ran
};

// Optimal tour of `x` (1 <= n <= kTspMaxCities) on the GPU, on ctx.stream(). Phases "alloc",
// "h2d", "compute", "d2h"; counters "kernel_launches", "diagonals" (layers computed on the
// GPU), "peak_device_bytes", "host_bytes" (argmins + staging), "cell_bytes", and with offload
// HostOffload's ("bytes_offloaded", "offload_chunks", "offload_host_waits", "offload_wait_s")
// plus "offload_compute_wait_s" (time the compute stream stood waiting for copies).
// Throws dpgpu::InputError for a bad configuration or n > kTspMaxCities, dpgpu::OutOfMemory
// (bytes needed and available) when host or device memory cannot hold it, dpgpu::Timeout
// once the deadline has passed (checked once per layer), std::runtime_error otherwise.
TspWavefrontResult tsp_wavefront(const tsp::Instance& x, const TspWavefrontConfig& config,
                                 Context& ctx);

}  // namespace dpgpu::wavefront
