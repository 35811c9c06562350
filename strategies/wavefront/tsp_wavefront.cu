// tsp_wavefront.cu — gpu.wavefront for the TSP: Held-Karp layer after layer through the
// generic engine (engine/wavefront_engine.cuh) with the adapter tsp_adapter.cuh (layers as
// diagonals, two cost layers on the device, argmins offloaded for the tour).
#include "tsp_wavefront.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "tsp_adapter.cuh"
#include "tsp_multigpu.hpp"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {
namespace {

template <class Cost>
TspWavefrontResult run(const tsp::Instance& x, const TspWavefrontConfig& cfg, Context& ctx) {
  EngineOptions o;
  o.readonly = read_path_from(cfg.readonly);
  o.decisions = cfg.reconstruct;
  o.offload = cfg.offload;
  o.offload_slots = std::size_t(cfg.offload_slots);
  o.offload_slot_bytes = std::uint64_t(cfg.offload_slot_bytes);
  o.deadline_every = 1;  // a layer takes milliseconds to seconds
  o.host_one_step_ahead = true;
  TspAdapter<Cost> adapter(x, cfg);
  run_wavefront(adapter, o, ctx);
  TspWavefrontResult out;
  out.cell_bytes = int(sizeof(Cost));
  out.cost = adapter.cost();
  if (cfg.reconstruct) out.tour = std::move(adapter.tour());
  return out;
}

}  // namespace

TspWavefrontResult tsp_wavefront(const tsp::Instance& x, const TspWavefrontConfig& config,
                                 Context& ctx) {
  validate(config);
  if (x.n < 1 || x.n > tsp_max_cities(config.gpus))
    throw InputError("gpu.wavefront: the Held-Karp layers hold n <= " +
                     std::to_string(tsp_max_cities(config.gpus)) +
                     " cities with gpus = " + std::to_string(config.gpus) +
                     " (one GPU: 32-bit subset masks, and n = 34 would need two layers of 155 "
                     "GB; several GPUs: 32-bit ranks), got n = " +
                     std::to_string(x.n));
  TspWavefrontResult out;
  if (x.n <= 2) {  // no layer to compute: {0} costs 0, {0, 1} costs d01 + d10
    out.cost = x.n == 1 ? 0 : x.arc(0, 1) + x.arc(1, 0);
    if (config.reconstruct) {
      out.tour.resize(std::size_t(x.n));
      for (int i = 0; i < x.n; ++i) out.tour[std::size_t(i)] = i;
    }
    for (const char* c : {"kernel_launches", "diagonals", "host_bytes", "argmin_bytes",
                          "bytes_offloaded", "offload_compute_wait_s", "offload_stream_wait_s"})
      ctx.set(c, 0);
    ctx.set("cell_bytes", 0);
  } else if (config.gpus > 1) {
    out = tsp_wavefront_multi(x, config, ctx);
    ctx.set("cell_bytes", double(out.cell_bytes));
  } else {
    const bool narrow = tsp::cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max();
    out = narrow ? run<std::int32_t>(x, config, ctx) : run<std::int64_t>(x, config, ctx);
    ctx.set("cell_bytes", double(out.cell_bytes));
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return out;
}

}  // namespace dpgpu::wavefront
