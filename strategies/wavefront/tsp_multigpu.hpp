// tsp_multigpu.hpp — gpu.wavefront for the TSP with `gpus` > 1: every Held-Karp layer split
// across logical GPUs (tsp_split.hpp), logical GPU i on device i % device count. Called by
// tsp_wavefront() (tsp_wavefront.hpp) when config.gpus > 1; CUDA stays in tsp_multigpu.cu.
#pragma once
#include "dpgpu/context.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"
#include "tsp_wavefront.hpp"

namespace dpgpu::wavefront {

// 3 <= x.n <= kTspMaxCitiesMulti, config validated, config.gpus >= 2. The device current at
// entry is current again at return (also when it throws), and nothing is created on it but
// its logical GPUs' own streams and events. Phases "alloc", "h2d", "compute", "d2h",
// "traceback"; counters as tsp_wavefront() plus gpus.logical, gpus.physical and per GPU
// gpu#.compute_s, gpu#.idle_s, gpu#.exchange_bytes, gpu#.device_bytes. Throws
// dpgpu::OutOfMemory (the figures) when a card or the host cannot hold its part, before
// allocating; std::runtime_error when two cards cannot access each other's memory.
TspWavefrontResult tsp_wavefront_multi(const tsp::Instance& x, const TspWavefrontConfig& config,
                                       Context& ctx);

}  // namespace dpgpu::wavefront
