// lcs_wavefront.cu — host driver of gpu.wavefront for LCS: padding, device buffers, the launch
// loop over anti-diagonals, phases and counters. Kernels: lcs_tile_kernel.cuh (tile mode),
// lcs_cell_kernel.cuh (cell mode, the paper's model).
#include "lcs_wavefront.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "lcs_cell_kernel.cuh"
#include "lcs_geometry.hpp"
#include "lcs_tile_kernel.cuh"

namespace dpgpu::wavefront {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;

constexpr std::int64_t kDeadlineEvery = 256;  // launches between deadline checks

// Declared after a solve's buffers, so destroyed before them: when the solve throws (deadline,
// failed launch) with work still queued, the stream drains before any buffer it uses is freed.
struct DrainOnExit {
  cudaStream_t stream;
  ~DrainOnExit() { cudaStreamSynchronize(stream); }  // errors surface at ctx.end()
};

// Tile mode with R rows per lane: tiles of 32·R × TW, one launch per anti-diagonal of tiles.
template <int R>
std::int64_t run_tile(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg,
                      Context& ctx, LcsTileBoundaries* boundaries) {
  const TileGeometry g = tile_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg);
  const std::string& row_str = g.swapped ? b : a;
  const std::string& col_str = g.swapped ? a : b;
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const auto kernel = lcs_tile_diagonal<R>;

  // The kernel is compiled without launch bounds (so it never spills); large R can make it
  // too register-hungry for the largest blocks. Say so instead of failing the launch.
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  if (cfg.block > attr.maxThreadsPerBlock)
    throw InputError("gpu.wavefront: parameter 'block' = " + std::to_string(cfg.block) +
                     " exceeds the " + std::to_string(attr.maxThreadsPerBlock) +
                     " threads per block the tile kernel with rows_per_thread = " + std::to_string(R) +
                     " can launch (" + std::to_string(attr.numRegs) + " registers per thread)");

  const std::size_t N = std::size_t(g.padded_rows), M = std::size_t(g.padded_cols);
  DeviceBuffer<std::uint16_t> d_a, d_b;
  DeviceBuffer<int> d_hrow, d_vcol, d_corner;
  PinnedBuffer<std::uint16_t> h_a, h_b;
  PinnedBuffer<int> h_result;
  const DrainOnExit drain{stream};
  {
    auto phase = ctx.phase("alloc");
    d_a = DeviceBuffer<std::uint16_t>(N, &ctx);
    d_b = DeviceBuffer<std::uint16_t>(M, &ctx);
    d_hrow = DeviceBuffer<int>(M, &ctx);
    d_vcol = DeviceBuffer<int>(N, &ctx);
    d_corner = DeviceBuffer<int>(std::size_t(g.tile_rows), &ctx);
    h_a = PinnedBuffer<std::uint16_t>(N);
    h_b = PinnedBuffer<std::uint16_t>(M);
    h_result = PinnedBuffer<int>(1);
    // Row 0 and column 0 of the table, and the first corner of every tile row, are zero.
    CUDA_CHECK(cudaMemsetAsync(d_hrow.get(), 0, d_hrow.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(d_vcol.get(), 0, d_vcol.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(d_corner.get(), 0, d_corner.bytes(), stream));
  }
  {
    auto phase = ctx.phase("h2d");
    fill_tile_symbols(row_str, kRowPad, h_a.get(), N);
    fill_tile_symbols(col_str, kColPad, h_b.get(), M);
    CUDA_CHECK(cudaMemcpyAsync(d_a.get(), h_a.get(), d_a.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_b.get(), h_b.get(), d_b.bytes(), cudaMemcpyHostToDevice, stream));
  }
  const std::int64_t diagonals = g.diagonals();
  {
    auto phase = ctx.phase("compute");
    for (std::int64_t d = 0; d < diagonals; ++d) {
      const TileLaunch l = tile_launch(g, d, cfg.block);
      kernel<<<static_cast<unsigned>(l.blocks), cfg.block, 0, stream>>>(
          d_a.get(), d_b.get(), d_hrow.get(), d_vcol.get(), d_corner.get(), int(g.tile_rows),
          int(g.tile_cols), g.tile_width, int(d));
      CUDA_CHECK_LAUNCH();
      if ((d + 1) % kDeadlineEvery == 0) ctx.check_deadline();
    }
  }
  {
    auto phase = ctx.phase("d2h");
    // H at the padded corner = LCS of the originals (padding matches nothing).
    CUDA_CHECK(cudaMemcpyAsync(h_result.get(), d_hrow.get() + (M - 1), sizeof(int),
                               cudaMemcpyDeviceToHost, stream));
    if (boundaries) {
      boundaries->rows_are_a = !g.swapped;
      boundaries->last_row.resize(M);
      boundaries->last_col.resize(N);
      CUDA_CHECK(cudaMemcpyAsync(boundaries->last_row.data(), d_hrow.get(), d_hrow.bytes(),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaMemcpyAsync(boundaries->last_col.data(), d_vcol.get(), d_vcol.bytes(),
                                 cudaMemcpyDeviceToHost, stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  ctx.set("kernel_launches", double(diagonals));
  ctx.set("diagonals", double(diagonals));
  ctx.set("tile_rows", double(g.tile_rows));
  ctx.set("tile_cols", double(g.tile_cols));
  ctx.set("tile_width_effective", double(g.tile_width));
  ctx.set("widest_diagonal_tiles", double(g.widest_diagonal()));
  ctx.set("padded_cells", double(g.padded_rows) * double(g.padded_cols));
  return h_result[0];
}

// Cell mode: one thread per cell, one launch per anti-diagonal k = 2 .. n + m.
std::int64_t run_cell(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg,
                      Context& ctx) {
  const CellGeometry g = cell_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg);
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const std::int64_t n = g.rows, m = g.cols, block = cfg.block;

  DeviceBuffer<std::uint8_t> d_a, d_b;
  DeviceBuffer<int> d_diag[3];
  PinnedBuffer<std::uint8_t> h_a, h_b;
  PinnedBuffer<int> h_result;
  const DrainOnExit drain{stream};
  {
    auto phase = ctx.phase("alloc");
    d_a = DeviceBuffer<std::uint8_t>(std::size_t(g.a_length), &ctx);
    d_b = DeviceBuffer<std::uint8_t>(std::size_t(g.b_length), &ctx);
    for (auto& d : d_diag) {
      d = DeviceBuffer<int>(std::size_t(g.diagonal_length), &ctx);
      CUDA_CHECK(cudaMemsetAsync(d.get(), 0, d.bytes(), stream));
    }
    h_a = PinnedBuffer<std::uint8_t>(std::size_t(g.a_length));
    h_b = PinnedBuffer<std::uint8_t>(std::size_t(g.b_length));
    h_result = PinnedBuffer<int>(1);
  }
  {
    auto phase = ctx.phase("h2d");
    fill_cell_symbols(a, 0, h_a.get(), h_a.size());
    fill_cell_symbols(b, std::size_t(block), h_b.get(), h_b.size());
    CUDA_CHECK(cudaMemcpyAsync(d_a.get(), h_a.get(), d_a.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_b.get(), h_b.get(), d_b.bytes(), cudaMemcpyHostToDevice, stream));
  }
  {
    auto phase = ctx.phase("compute");
    for (std::int64_t k = 2; k <= n + m; ++k) {
      const CellLaunch l = cell_launch(g, k);
      lcs_cell_diagonal<<<static_cast<unsigned>(l.blocks), cfg.block, 0, stream>>>(
          d_a.get(), d_b.get() + block, d_diag[(k - 2) % 3].get(), d_diag[(k - 1) % 3].get(),
          d_diag[k % 3].get(), int(k), int(l.first_row));
      CUDA_CHECK_LAUNCH();
      if ((k - 1) % kDeadlineEvery == 0) ctx.check_deadline();
    }
  }
  {
    auto phase = ctx.phase("d2h");
    CUDA_CHECK(cudaMemcpyAsync(h_result.get(), d_diag[(n + m) % 3].get() + n, sizeof(int),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  ctx.set("kernel_launches", double(g.diagonals()));
  ctx.set("diagonals", double(g.diagonals()));
  return h_result[0];
}

}  // namespace

std::int64_t lcs_wavefront_length(const std::string& a, const std::string& b,
                                  const LcsWavefrontConfig& config, Context& ctx,
                                  LcsTileBoundaries* boundaries) {
  validate(config);
  if (std::int64_t(a.size()) + std::int64_t(b.size()) > kMaxLength)
    throw InputError("gpu.wavefront: |a| + |b| = " + std::to_string(a.size() + b.size()) +
                     " exceeds the " + std::to_string(kMaxLength) + " symbols of 32-bit device indices");
  std::int64_t result = 0;
  if (a.empty() || b.empty()) {
    ctx.set("kernel_launches", 0);
    ctx.set("diagonals", 0);
  } else if (config.mode == LcsMode::Cell) {
    result = run_cell(a, b, config, ctx);
  } else {
    switch (config.rows_per_thread) {
      case 4: result = run_tile<4>(a, b, config, ctx, boundaries); break;
      case 8: result = run_tile<8>(a, b, config, ctx, boundaries); break;
      case 16: result = run_tile<16>(a, b, config, ctx, boundaries); break;
      case 32: result = run_tile<32>(a, b, config, ctx, boundaries); break;
      default: validate(config);  // unreachable: validate() rejects other values
    }
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return result;
}

}  // namespace dpgpu::wavefront
