// lcs_wavefront.cu — host driver of gpu.wavefront for LCS: padding, device buffers, the launch
// loop over anti-diagonals, phases and counters; with `reconstruct`, the decision bits' way
// to the host (BitSink) and the traceback. Kernels: lcs_tile_kernel.cuh (tile mode),
// lcs_cell_kernel.cuh (cell mode, the paper's model).
#include "lcs_wavefront.hpp"

#include <cuda_runtime.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "host_offload.cuh"
#include "lcs_cell_kernel.cuh"
#include "lcs_geometry.hpp"
#include "lcs_tile_kernel.cuh"
#include "lcs_traceback.hpp"
#include "readonly.cuh"

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

// Texture objects over linear memory address at most maxTexture1DLinear elements.
void check_texture_size(std::size_t elements) {
  int device = 0, limit = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxTexture1DLinearWidth, device));
  if (elements > std::size_t(limit))
    throw InputError("gpu.wavefront: readonly = texture addresses at most " + std::to_string(limit) +
                     " elements per string on this GPU, the padded string has " + std::to_string(elements) +
                     "; use readonly = ldg or plain");
}

// Host array of decision-bit words: not zero-filled (every word is overwritten), and on Linux
// asked for huge pages, since it is gigabytes at the largest sizes and first touch dominates.
struct FreeDeleter {
  void operator()(std::uint32_t* p) const { std::free(p); }
};
std::unique_ptr<std::uint32_t[], FreeDeleter> host_words(std::size_t words) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t bytes = (words * 4 + kHuge - 1) / kHuge * kHuge;
  void* p = std::aligned_alloc(kHuge, bytes);
  if (!p) throw OutOfMemory("gpu.wavefront: reconstruct needs " + std::to_string(words * 4) +
                            " bytes of host memory for the decision bits; allocation failed");
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return std::unique_ptr<std::uint32_t[], FreeDeleter>(static_cast<std::uint32_t*>(p));
}

// Where the kernels write their decision bits, and how they reach the host array that the
// traceback reads. Units (tile diagonals, cell diagonals) are grouped into chunks; chunk c is
// written to device buffer c mod 2, then (offload) pushed to the pinned ring on the copy
// stream while chunk c + 1 computes; before chunk c + 2 overwrites that buffer the compute
// stream waits on the GPU for its copy (normally long done). Without offload every unit is
// written straight to its place in one device array, copied back once at the end.
class BitSink {
 public:
  BitSink(const BitsLayout& layout, const LcsWavefrontConfig& cfg, Context& ctx, cudaStream_t stream)
      : layout_(layout), offload_(cfg.offload), stream_(stream) {
    const std::size_t total = std::size_t(layout.total_words());
    if (!offload_) {
      std::size_t free_bytes = 0, total_bytes = 0;
      CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      if (layout.total_bytes() > free_bytes)
        throw OutOfMemory("gpu.wavefront: reconstruct with offload = false keeps all " +
                          std::to_string(layout.total_bytes()) + " bytes of decision bits on the device, but only " +
                          std::to_string(free_bytes) + " of " + std::to_string(total_bytes) +
                          " bytes are free; use offload = true");
      device_ = DeviceBuffer<std::uint32_t>(total, &ctx);
    } else {
      device_ = DeviceBuffer<std::uint32_t>(std::size_t(kDeviceBitBuffers) * std::size_t(layout.chunk_words_max), &ctx);
    }
    host_ = host_words(total);
    if (offload_)
      ring_ = std::make_unique<HostOffload>(std::size_t(cfg.offload_slots), std::size_t(layout.chunk_bytes_max()),
                                            reinterpret_cast<std::uint8_t*>(host_.get()));
  }

  // Chunk `c` begins with unit `first_unit`; later unit_ptr() calls are relative to it.
  void begin_chunk(std::int64_t c, std::int64_t first_unit) {
    chunk_ = c;
    first_ = first_unit;
    if (offload_ && c >= kDeviceBitBuffers) HostOffload::release(copied_[c % kDeviceBitBuffers], stream_);
  }
  std::uint32_t* unit_ptr(std::int64_t unit) const {
    const auto& o = layout_.offset;
    if (!offload_) return device_.get() + o[std::size_t(unit)];
    return device_.get() + (chunk_ % kDeviceBitBuffers) * layout_.chunk_words_max + (o[std::size_t(unit)] - o[std::size_t(first_)]);
  }
  // The chunk's units first_unit .. end_unit − 1 are queued on the compute stream.
  void end_chunk(std::int64_t end_unit) {
    if (!offload_) return;
    const auto& o = layout_.offset;
    const std::size_t words = std::size_t(o[std::size_t(end_unit)] - o[std::size_t(first_)]);
    if (words == 0) return;
    copied_[chunk_ % kDeviceBitBuffers] =
        ring_->push(unit_ptr(first_), words * 4, std::size_t(o[std::size_t(first_)]) * 4, stream_);
  }
  // Every bit in the host array (call in the "d2h" phase).
  void finish() {
    if (offload_) {
      ring_->finish();
    } else {
      CUDA_CHECK(cudaMemcpyAsync(host_.get(), device_.get(), device_.bytes(), cudaMemcpyDeviceToHost, stream_));
      CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
  }
  const std::uint32_t* words() const { return host_.get(); }
  void report(Context& ctx) const {
    ctx.set("decision_bits_bytes", double(layout_.total_bytes()));
    if (ring_) {
      ring_->report(ctx);
    } else {
      ctx.set("bytes_offloaded", 0);
      ctx.set("offload_chunks", 0);
      ctx.set("offload_host_waits", 0);
      ctx.set("offload_wait_s", 0);
    }
  }

 private:
  const BitsLayout& layout_;
  bool offload_;
  cudaStream_t stream_;
  // Destroyed in reverse: the ring first (it waits for its copies), then the buffers it reads
  // from and writes to.
  std::unique_ptr<std::uint32_t[], FreeDeleter> host_;
  DeviceBuffer<std::uint32_t> device_;
  std::unique_ptr<HostOffload> ring_;
  cudaEvent_t copied_[kDeviceBitBuffers] = {};
  std::int64_t chunk_ = 0, first_ = 0;
};

// Tile mode with R rows per lane: tiles of 32·R × TW, one launch per anti-diagonal of tiles.
// kBits: reconstruct (decision bits out, traceback); P: how the strings are read.
template <int R, bool kBits, ReadPath P>
LcsWavefrontResult run_tile(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg,
                            Context& ctx, LcsTileBoundaries* boundaries) {
  const TileGeometry g = tile_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg);
  const std::string& row_str = g.swapped ? b : a;
  const std::string& col_str = g.swapped ? a : b;
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const auto kernel = lcs_tile_diagonal<R, kBits, P>;

  // The kernel is compiled without launch bounds (so it never spills); large R can make it
  // too register-hungry for the largest blocks. Say so instead of failing the launch.
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  if (cfg.block > attr.maxThreadsPerBlock)
    throw InputError("gpu.wavefront: parameter 'block' = " + std::to_string(cfg.block) +
                     " exceeds the " + std::to_string(attr.maxThreadsPerBlock) +
                     " threads per block the tile kernel with rows_per_thread = " + std::to_string(R) +
                     (kBits ? " and reconstruct" : "") + " can launch (" + std::to_string(attr.numRegs) +
                     " registers per thread)");

  const std::size_t N = std::size_t(g.padded_rows), M = std::size_t(g.padded_cols);
  if constexpr (P == ReadPath::Texture) check_texture_size(std::max(N, M));
  BitsLayout layout;
  if constexpr (kBits) layout = tile_bits_layout(g, cfg.block);
  DeviceBuffer<std::uint16_t> d_a, d_b;
  DeviceBuffer<int> d_hrow, d_vcol, d_corner;
  // Pageable host copies: pinning a buffer costs 1-5 ms a solve, far more than these copies.
  std::vector<std::uint16_t> h_a, h_b;
  std::vector<int> h_result;
  std::optional<ReadOnlyBinding<std::uint16_t>> ro_a, ro_b;
  std::optional<BitSink> sink;
  const DrainOnExit drain{stream};
  {
    auto phase = ctx.phase("alloc");
    d_a = DeviceBuffer<std::uint16_t>(N, &ctx);
    d_b = DeviceBuffer<std::uint16_t>(M, &ctx);
    d_hrow = DeviceBuffer<int>(M, &ctx);
    d_vcol = DeviceBuffer<int>(N, &ctx);
    d_corner = DeviceBuffer<int>(std::size_t(g.tile_rows), &ctx);
    h_a.resize(N);
    h_b.resize(M);
    h_result.resize(1);
    ro_a.emplace(d_a.get(), N, P);
    ro_b.emplace(d_b.get(), M, P);
    if constexpr (kBits) sink.emplace(layout, cfg, ctx, stream);
    // Row 0 and column 0 of the table, and the first corner of every tile row, are zero.
    CUDA_CHECK(cudaMemsetAsync(d_hrow.get(), 0, d_hrow.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(d_vcol.get(), 0, d_vcol.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(d_corner.get(), 0, d_corner.bytes(), stream));
  }
  {
    auto phase = ctx.phase("h2d");
    fill_tile_symbols(row_str, kRowPad, h_a.data(), N);
    fill_tile_symbols(col_str, kColPad, h_b.data(), M);
    CUDA_CHECK(cudaMemcpyAsync(d_a.get(), h_a.data(), d_a.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_b.get(), h_b.data(), d_b.bytes(), cudaMemcpyHostToDevice, stream));
  }
  const std::int64_t diagonals = g.diagonals();
  {
    auto phase = ctx.phase("compute");
    for (std::int64_t d = 0; d < diagonals; ++d) {
      const TileLaunch l = tile_launch(g, d, cfg.block);
      std::uint32_t* bits = nullptr;
      if constexpr (kBits) {
        sink->begin_chunk(d, d);  // one chunk per tile diagonal
        bits = sink->unit_ptr(d);
      }
      auto mark = ctx.profiled_launch();  // lets dpgpu's profiler sample launches across the run
      kernel<<<static_cast<unsigned>(l.blocks), cfg.block, 0, stream>>>(
          ro_a->view(), ro_b->view(), d_hrow.get(), d_vcol.get(), d_corner.get(), bits, int(g.tile_rows),
          int(g.tile_cols), g.tile_width, int(d));
      CUDA_CHECK_LAUNCH();
      if constexpr (kBits) sink->end_chunk(d + 1);
      if ((d + 1) % kDeadlineEvery == 0) ctx.check_deadline();
    }
  }
  {
    auto phase = ctx.phase("d2h");
    // H at the padded corner = LCS of the originals (padding matches nothing).
    CUDA_CHECK(cudaMemcpyAsync(h_result.data(), d_hrow.get() + (M - 1), sizeof(int),
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
    if constexpr (kBits) sink->finish();
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  LcsWavefrontResult result;
  result.length = h_result[0];
  if constexpr (kBits) {
    auto phase = ctx.phase("traceback");
    result.subsequence = traceback(row_str, col_str, TileBitReader{&g, &layout, sink->words()});
    sink->report(ctx);
  }
  ctx.set("kernel_launches", double(diagonals));
  ctx.set("diagonals", double(diagonals));
  ctx.set("tile_rows", double(g.tile_rows));
  ctx.set("tile_cols", double(g.tile_cols));
  ctx.set("tile_width_effective", double(g.tile_width));
  ctx.set("widest_diagonal_tiles", double(g.widest_diagonal()));
  ctx.set("padded_cells", double(g.padded_rows) * double(g.padded_cols));
  return result;
}

// Cell mode: one thread per cell, one launch per anti-diagonal k = 2 .. n + m. kBits: each
// diagonal's ballot words; kCellBatch diagonals make one offload chunk.
template <ReadPath P, bool kBits>
LcsWavefrontResult run_cell(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg,
                            Context& ctx) {
  const CellGeometry g = cell_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg);
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const std::int64_t n = g.rows, m = g.cols, block = cfg.block;
  if constexpr (P == ReadPath::Texture) check_texture_size(std::size_t(std::max(g.a_length, g.b_length)));
  BitsLayout layout;
  if constexpr (kBits) layout = cell_bits_layout(g);

  DeviceBuffer<std::uint8_t> d_a, d_b;
  DeviceBuffer<int> d_diag[3];
  std::vector<std::uint8_t> h_a, h_b;  // pageable: see run_tile
  std::vector<int> h_result;
  std::optional<ReadOnlyBinding<std::uint8_t>> ro_a, ro_b;
  std::optional<BitSink> sink;
  const DrainOnExit drain{stream};
  {
    auto phase = ctx.phase("alloc");
    d_a = DeviceBuffer<std::uint8_t>(std::size_t(g.a_length), &ctx);
    d_b = DeviceBuffer<std::uint8_t>(std::size_t(g.b_length), &ctx);
    for (auto& d : d_diag) {
      d = DeviceBuffer<int>(std::size_t(g.diagonal_length), &ctx);
      CUDA_CHECK(cudaMemsetAsync(d.get(), 0, d.bytes(), stream));
    }
    h_a.resize(std::size_t(g.a_length));
    h_b.resize(std::size_t(g.b_length));
    h_result.resize(1);
    ro_a.emplace(d_a.get(), d_a.size(), P);
    ro_b.emplace(d_b.get(), d_b.size(), P);
    if constexpr (kBits) sink.emplace(layout, cfg, ctx, stream);
  }
  {
    auto phase = ctx.phase("h2d");
    fill_cell_symbols(a, 0, h_a.data(), h_a.size());
    fill_cell_symbols(b, std::size_t(block), h_b.data(), h_b.size());
    CUDA_CHECK(cudaMemcpyAsync(d_a.get(), h_a.data(), d_a.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_b.get(), h_b.data(), d_b.bytes(), cudaMemcpyHostToDevice, stream));
  }
  // b through ldg/plain: the pointer past the left guards; through a texture: the texture
  // over the whole array, indexed with the guards' count added.
  ReadOnly<std::uint8_t> rb = ro_b->view();
  if constexpr (P != ReadPath::Texture) rb.ptr = d_b.get() + block;
  {
    auto phase = ctx.phase("compute");
    for (std::int64_t k = 2; k <= n + m; ++k) {
      const CellLaunch l = cell_launch(g, k);
      const std::int64_t unit = k - 2;
      std::uint32_t* bits = nullptr;
      if constexpr (kBits) {
        if (unit % kCellBatch == 0) sink->begin_chunk(unit / kCellBatch, unit);
        bits = sink->unit_ptr(unit);
      }
      auto mark = ctx.profiled_launch();  // lets dpgpu's profiler sample launches across the run
      lcs_cell_diagonal<P, kBits><<<static_cast<unsigned>(l.blocks), cfg.block, 0, stream>>>(
          ro_a->view(), rb, int(block), d_diag[(k - 2) % 3].get(), d_diag[(k - 1) % 3].get(), d_diag[k % 3].get(),
          bits, int(k), int(l.first_row));
      CUDA_CHECK_LAUNCH();
      if constexpr (kBits) {
        if ((unit + 1) % kCellBatch == 0 || k == n + m) sink->end_chunk(unit + 1);
      }
      if ((k - 1) % kDeadlineEvery == 0) ctx.check_deadline();
    }
  }
  {
    auto phase = ctx.phase("d2h");
    CUDA_CHECK(cudaMemcpyAsync(h_result.data(), d_diag[(n + m) % 3].get() + n, sizeof(int),
                               cudaMemcpyDeviceToHost, stream));
    if constexpr (kBits) sink->finish();
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  LcsWavefrontResult result;
  result.length = h_result[0];
  if constexpr (kBits) {
    auto phase = ctx.phase("traceback");
    result.subsequence = traceback(a, b, CellBitReader{&g, &layout, sink->words()});
    sink->report(ctx);
  }
  ctx.set("kernel_launches", double(g.diagonals()));
  ctx.set("diagonals", double(g.diagonals()));
  return result;
}

template <bool kBits, ReadPath P>
LcsWavefrontResult run_mode(const std::string& a, const std::string& b, const LcsWavefrontConfig& config,
                            Context& ctx, LcsTileBoundaries* boundaries) {
  if (config.mode == LcsMode::Cell) return run_cell<P, kBits>(a, b, config, ctx);
  switch (config.rows_per_thread) {
    case 4: return run_tile<4, kBits, P>(a, b, config, ctx, boundaries);
    case 8: return run_tile<8, kBits, P>(a, b, config, ctx, boundaries);
    case 16: return run_tile<16, kBits, P>(a, b, config, ctx, boundaries);
    default: return run_tile<32, kBits, P>(a, b, config, ctx, boundaries);  // validate() allows only 32 here
  }
}

template <bool kBits>
LcsWavefrontResult run_path(const std::string& a, const std::string& b, const LcsWavefrontConfig& config,
                            Context& ctx, LcsTileBoundaries* boundaries) {
  switch (config.readonly) {
    case LcsReadOnly::Plain: return run_mode<kBits, ReadPath::Plain>(a, b, config, ctx, boundaries);
    case LcsReadOnly::Texture: return run_mode<kBits, ReadPath::Texture>(a, b, config, ctx, boundaries);
    default: return run_mode<kBits, ReadPath::Ldg>(a, b, config, ctx, boundaries);
  }
}

}  // namespace

LcsWavefrontResult lcs_wavefront(const std::string& a, const std::string& b, const LcsWavefrontConfig& config,
                                 Context& ctx, LcsTileBoundaries* boundaries) {
  validate(config);
  if (std::int64_t(a.size()) + std::int64_t(b.size()) > kMaxLength)
    throw InputError("gpu.wavefront: |a| + |b| = " + std::to_string(a.size() + b.size()) +
                     " exceeds the " + std::to_string(kMaxLength) + " symbols of 32-bit device indices");
  LcsWavefrontResult result;
  if (a.empty() || b.empty()) {
    ctx.set("kernel_launches", 0);
    ctx.set("diagonals", 0);
    if (config.reconstruct) result.subsequence = std::string();
  } else if (config.reconstruct) {
    result = run_path<true>(a, b, config, ctx, boundaries);
  } else {
    result = run_path<false>(a, b, config, ctx, boundaries);
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return result;
}

std::int64_t lcs_wavefront_length(const std::string& a, const std::string& b,
                                  const LcsWavefrontConfig& config, Context& ctx,
                                  LcsTileBoundaries* boundaries) {
  return lcs_wavefront(a, b, config, ctx, boundaries).length;
}

}  // namespace dpgpu::wavefront
