// knapsack_wavefront.cu — gpu.wavefront for the 0-1 knapsack: the adapter
// (knapsack_adapter.cuh: grid, window, recurrence, inputs, decision bits) run through the
// generic engine (engine/wavefront_engine.cuh).
#include "knapsack_wavefront.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/error.hpp"
#include "knapsack_adapter.cuh"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {
namespace {

template <class T>
KnapsackWavefrontResult run(const knapsack::Instance& x, const KnapsackWavefrontConfig& cfg,
                            const KnapsackGeometry& g, Context& ctx) {
  EngineOptions o;
  o.readonly = read_path_from(cfg.readonly);
  o.decisions = cfg.reconstruct;
  o.offload = cfg.offload;
  o.offload_slots = std::size_t(cfg.offload_slots);
  o.deadline_every = 256;
  KnapsackAdapter<T> adapter(x, cfg, g);
  run_wavefront(adapter, o, ctx);
  KnapsackWavefrontResult out;
  out.value = adapter.value();
  if (cfg.reconstruct) out.items = std::move(adapter.items());
  return out;
}

}  // namespace

KnapsackWavefrontResult knapsack_wavefront(const knapsack::Instance& x,
                                           const KnapsackWavefrontConfig& config, Context& ctx) {
  validate(config);
  const KnapsackGeometry g = knapsack_geometry(x, config);
  ctx.set("diagonals", double(g.diagonals));
  ctx.set("window", double(g.window));
  ctx.set("cell_bits", 8.0 * g.cell_bytes);
  ctx.set("ring_bytes", double(g.ring_bytes()));
  KnapsackWavefrontResult out;
  if (g.items == 0) {  // nothing fits (or no items): the empty packing, no GPU work
    ctx.set("kernel_launches", 0);
    ctx.set("bytes_offloaded", 0);
    ctx.set("offload_wait_s", 0);
    ctx.set("offload_stream_wait_s", 0);
    if (config.reconstruct) out.items = std::vector<std::int32_t>{};
  } else if (g.cell_bytes == 4) {
    out = run<std::int32_t>(x, config, g, ctx);
  } else {
    out = run<std::int64_t>(x, config, g, ctx);
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return out;
}

}  // namespace dpgpu::wavefront
