// mcm_tiled.cu — gpu.mcm_tiled: one tile diagonal per pair of launches (panel products split
// over several blocks per tile, then each tile's own splits in shared memory), the walk of
// the split tree, download. Kernels in tiled_kernels.cuh.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "mcm_kernels.cuh"
#include "mcm_solvers.hpp"
#include "mcm_walk.cuh"
#include "tiled_kernels.cuh"

namespace dpgpu::mcm_gpu {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;

int sm_count() {
  int dev = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms;
}

// Parts (blocks per tile) for tile diagonal D with `tiles` tiles: enough blocks for `target`.
int parts_for(int D, int tiles, int target) {
  if (D < 2) return 0;
  return std::max(1, std::min(D - 1, (target + tiles - 1) / tiles));
}

// Tile diagonal D's launches, each profiled: the panel products over `parts` blocks per tile
// (none on diagonals 0 and 1), then each tile's own splits. Returns the launches made.
template <class V>
int launch_tile_diagonal(const TiledTableT<V>& tab, int D, int tiles, int parts, Compare compare,
                         V* part_v, int* part_c, cudaStream_t stream, Context& ctx) {
  constexpr bool kInt = sizeof(V) == 4;
  int launches = 0;
  if (parts > 0) {
    auto mark = ctx.profiled_launch();
    const dim3 grid{unsigned(tiles), unsigned(parts)};
    if constexpr (kInt)
      tile_panels_int<<<grid, kPanelThreads, 0, stream>>>(tab, D, parts, part_v, part_c);
    else if (compare == Compare::bits)
      tile_panels<true><<<grid, kPanelThreads, 0, stream>>>(tab, D, parts, part_v, part_c);
    else
      tile_panels<false><<<grid, kPanelThreads, 0, stream>>>(tab, D, parts, part_v, part_c);
    CUDA_CHECK_LAUNCH();
    ++launches;
  }
  {
    auto mark = ctx.profiled_launch();
    tile_finish<V><<<unsigned(tiles), kFinishThreads, kFinishSmem<V>, stream>>>(tab, D, parts,
                                                                                part_v, part_c);
    CUDA_CHECK_LAUNCH();
    ++launches;
  }
  return launches;
}

// One instantiation per value type: int (every candidate below 2^31) or double.
template <class V>
GpuAnswer solve_typed(const ::mcm::Instance& x, const TiledConfig& cfg, Context& ctx) {
  constexpr bool kInt = sizeof(V) == 4;
  const ll n = x.n(), W = tiled_points(x);
  const int T = int(W / kTile);
  const int target = cfg.split_target > 0 ? cfg.split_target : 2 * sm_count();
  auto stream = static_cast<cudaStream_t>(ctx.stream());
  int max_blocks = 1;
  for (int D = 2; D < T; ++D)
    max_blocks = std::max(max_blocks, (T - D) * parts_for(D, T - D, target));

  DeviceBuffer<V> m, p, part_v;
  DeviceBuffer<std::int32_t> s;
  DeviceBuffer<int> part_c;
  {
    auto ph = ctx.phase("alloc");
    m = DeviceBuffer<V>(std::size_t(W * W), &ctx);
    s = DeviceBuffer<std::int32_t>(std::size_t(W * W), &ctx);
    p = DeviceBuffer<V>(std::size_t(W), &ctx);
    part_v = DeviceBuffer<V>(std::size_t(max_blocks) * kTile * kTile, &ctx);
    part_c = DeviceBuffer<int>(std::size_t(max_blocks) * kTile * kTile, &ctx);
  }
  {
    auto ph = ctx.phase("h2d");
    PinnedBuffer<V> h_p{std::size_t(W)};
    for (ll t = 0; t < W; ++t) h_p[std::size_t(t)] = t <= n ? V(x.p[std::size_t(t)]) : V(0);
    CUDA_CHECK(cudaMemcpyAsync(p.get(), h_p.get(), p.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  TiledTableT<V> tab{m.get(), s.get(), p.get(), W};
  std::int64_t launches = 0;
  double panel_splits = 0;  // split evaluations in panel products (the rest: inside tiles)
  {
    auto ph = ctx.phase("compute");
    CUDA_CHECK(cudaFuncSetAttribute(tile_finish<V>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(kFinishSmem<V>)));
    const bool series = ctx.series_wanted();
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    if (series) {
      CUDA_CHECK(cudaEventCreate(&e0));
      CUDA_CHECK(cudaEventCreate(&e1));
    }
    for (int D = 0; D < T; ++D) {
      const int tiles = T - D, parts = parts_for(D, tiles, target);
      if (D >= 2) panel_splits += double(tiles) * double(D - 1) * kTile * kTile * kTile;
      if (series) CUDA_CHECK(cudaEventRecord(e0, stream));
      launches += launch_tile_diagonal(tab, D, tiles, parts, cfg.compare, part_v.get(),
                                       part_c.get(), stream, ctx);
      if (series) {
        CUDA_CHECK(cudaEventRecord(e1, stream));
        CUDA_CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        ctx.series("diagonal_time_s", std::size_t(D), double(ms) * 1e-3);  // per tile diagonal
      }
      if (D % 64 == 63) {
        CUDA_CHECK(cudaStreamSynchronize(stream));
        ctx.check_deadline();
      }
    }
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
  }
  GpuAnswer ans;
  if constexpr (kInt)
    ans = walk_answer(RowSplitResolve{s.get(), m.get(), p.get(), W}, n, m.get() + n, ctx, stream,
                      launches);
  else
    ans = walk_answer(RowSplit{s.get(), W}, n, m.get() + n, ctx, stream, launches);
  ctx.set("value_bits", kInt ? 32 : 64);
  ctx.set("tile", kTile);
  ctx.set("tile_diagonals", T);
  ctx.set("split_target", target);
  ctx.set("panel_splits", double(panel_splits));
  ctx.set("kernel_launches", double(launches));
  return ans;
}

}  // namespace

GpuAnswer solve_mcm_tiled(const ::mcm::Instance& x, const TiledConfig& cfg, Context& ctx) {
  if (auto why = why_not_tiled(x); !why.empty()) throw InputError("gpu.mcm_tiled: refused: " + why);
  return tiled_uses_int(x, cfg) ? solve_typed<int>(x, cfg, ctx) : solve_typed<double>(x, cfg, ctx);
}

}  // namespace dpgpu::mcm_gpu
