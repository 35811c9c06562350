// lcs_wavefront.cu — gpu.wavefront for LCS: picks the adapter (cell mode: lcs_cell_adapter.cuh,
// the paper's model through the engine's generic step kernel; tile mode: lcs_tile_adapter.cuh,
// a tile per warp through its own step kernel) and runs it through the generic engine
// (engine/wavefront_engine.cuh), which owns the steps, buffers, offload and counters.
#include "lcs_wavefront.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "dpgpu/error.hpp"
#include "lcs_cell_adapter.cuh"
#include "lcs_tile_adapter.cuh"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {
namespace {

EngineOptions engine_options(const LcsWavefrontConfig& c) {
  EngineOptions o;
  o.readonly = c.readonly == LcsReadOnly::Plain     ? ReadPath::Plain
               : c.readonly == LcsReadOnly::Texture ? ReadPath::Texture
                                                    : ReadPath::Ldg;
  o.decisions = c.reconstruct;
  o.offload = c.offload;
  o.offload_slots = std::size_t(c.offload_slots);
  o.deadline_every = 256;
  return o;
}

template <class Adapter>
LcsWavefrontResult solve(Adapter& adapter, const LcsWavefrontConfig& config, Context& ctx) {
  run_wavefront(adapter, engine_options(config), ctx);
  LcsWavefrontResult result;
  result.length = adapter.length();
  if (config.reconstruct) result.subsequence = std::move(adapter.subsequence());
  return result;
}

template <int R>
LcsWavefrontResult run_tile(const std::string& a, const std::string& b,
                            const LcsWavefrontConfig& config, Context& ctx,
                            LcsTileBoundaries* boundaries) {
  LcsTileAdapter<R> adapter(a, b, config, boundaries);
  return solve(adapter, config, ctx);
}

}  // namespace

LcsWavefrontResult lcs_wavefront(const std::string& a, const std::string& b,
                                 const LcsWavefrontConfig& config, Context& ctx,
                                 LcsTileBoundaries* boundaries) {
  validate(config);
  if (std::int64_t(a.size()) + std::int64_t(b.size()) > kMaxLength)
    throw InputError("gpu.wavefront: |a| + |b| = " + std::to_string(a.size() + b.size()) +
                     " exceeds the " + std::to_string(kMaxLength) +
                     " symbols of 32-bit device indices");
  LcsWavefrontResult result;
  if (a.empty() || b.empty()) {
    ctx.set("kernel_launches", 0);
    ctx.set("diagonals", 0);
    if (config.reconstruct) result.subsequence = std::string();
    ctx.set("peak_device_bytes", double(ctx.device_peak()));
    return result;
  }
  if (config.mode == LcsMode::Cell) {
    LcsCellAdapter adapter(a, b, config);
    return solve(adapter, config, ctx);
  }
  switch (config.rows_per_thread) {
    case 4: return run_tile<4>(a, b, config, ctx, boundaries);
    case 8: return run_tile<8>(a, b, config, ctx, boundaries);
    case 16: return run_tile<16>(a, b, config, ctx, boundaries);
    default: return run_tile<32>(a, b, config, ctx, boundaries);  // validate() allows only 32 here
  }
}

std::int64_t lcs_wavefront_length(const std::string& a, const std::string& b,
                                  const LcsWavefrontConfig& config, Context& ctx,
                                  LcsTileBoundaries* boundaries) {
  return lcs_wavefront(a, b, config, ctx, boundaries).length;
}

}  // namespace dpgpu::wavefront
