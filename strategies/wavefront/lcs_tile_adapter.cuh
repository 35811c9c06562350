// lcs_tile_adapter.cuh — LCS tile mode (tuned for Hopper) as an engine adapter whose unit of
// work is a tile instead of a cell: step d is anti-diagonal d of TH × TW tiles, one warp per
// tile (lcs_tile_kernel.cuh, its own step kernel: a warp walks its tile's columns with the
// rows in registers, which a cell-per-thread recurrence cannot express). A tile reads the
// tiles left of and above it only through their boundaries, so the adapter keeps that state
// itself (window 0 for the engine's ring): the bottom row of every tile column (h_row), the
// right column of every tile row (v_col) and one corner per tile row. Read-only inputs: the
// two padded strings (uint16 symbols). Reconstruction: TW·R decision words per tile, one
// offloaded chunk per tile diagonal.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "lcs_cell_adapter.cuh"  // check_bits_fit_device
#include "lcs_geometry.hpp"
#include "lcs_tile_kernel.cuh"
#include "lcs_traceback.hpp"
#include "lcs_wavefront.hpp"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {

template <int R>
class LcsTileAdapter {
 public:
  using Cell = int;  // no engine ring (window 0)
  static constexpr AdapterHooks kHooks{
      .check_fits = true, .prepare = true, .allocate = true, .report = true};

  LcsTileAdapter(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg,
                 LcsTileBoundaries* boundaries)
      : cfg_(cfg),
        g_(tile_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg)),
        row_str_(g_.swapped ? b : a),
        col_str_(g_.swapped ? a : b),
        boundaries_(boundaries) {
    if (cfg.reconstruct) layout_ = tile_bits_layout(g_, cfg.block);
  }

  std::int64_t steps() const { return g_.diagonals(); }
  RingShape ring() const { return RingShape{}; }

  // The kernel is compiled without launch bounds (so it never spills); large R can make it
  // too register-hungry for the largest blocks. Say so instead of failing the launch.
  template <ReadPath P, bool kBits>
  void prepare() const {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, lcs_tile_diagonal<R, kBits, P>));
    if (cfg_.block > attr.maxThreadsPerBlock)
      throw InputError("gpu.wavefront: parameter 'block' = " + std::to_string(cfg_.block) +
                       " exceeds the " + std::to_string(attr.maxThreadsPerBlock) +
                       " threads per block the tile kernel with rows_per_thread = " +
                       std::to_string(R) + (kBits ? " and reconstruct" : "") + " can launch (" +
                       std::to_string(attr.numRegs) + " registers per thread)");
  }
  void check_fits(const EngineOptions& o) const { check_bits_fit_device(layout_, o); }

  // Row 0 and column 0 of the table, and the first corner of every tile row, are zero.
  void allocate(Context& ctx, cudaStream_t stream) {
    h_row_ = gpu::DeviceBuffer<int>(std::size_t(g_.padded_cols), &ctx);
    v_col_ = gpu::DeviceBuffer<int>(std::size_t(g_.padded_rows), &ctx);
    corner_ = gpu::DeviceBuffer<int>(std::size_t(g_.tile_rows), &ctx);
    CUDA_CHECK(cudaMemsetAsync(h_row_.get(), 0, h_row_.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(v_col_.get(), 0, v_col_.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(corner_.get(), 0, corner_.bytes(), stream));
  }
  // Pageable host copies: pinning a buffer costs 1-5 ms a solve, far more than these copies.
  void upload(InputStore& store, int*, cudaStream_t) {
    std::vector<std::uint16_t> ha(std::size_t(g_.padded_rows)), hb(std::size_t(g_.padded_cols));
    fill_tile_symbols(row_str_, kRowPad, ha.data(), ha.size());
    fill_tile_symbols(col_str_, kColPad, hb.data(), hb.size());
    ra_ = store.add(ha.data(), ha.size(), "the row string");
    rb_ = store.add(hb.data(), hb.size(), "the column string");
  }

  template <ReadPath P, bool kBits>
  void launch(const StepArgs<Cell>& s) const {
    const TileLaunch l = tile_launch(g_, s.step, cfg_.block);
    lcs_tile_diagonal<R, kBits, P><<<static_cast<unsigned>(l.blocks), cfg_.block, 0, s.stream>>>(
        ra_, rb_, h_row_.get(), v_col_.get(), corner_.get(),
        reinterpret_cast<std::uint32_t*>(s.decisions), int(g_.tile_rows), int(g_.tile_cols),
        g_.tile_width, int(s.step));
    CUDA_CHECK_LAUNCH();
  }

  // One chunk per tile diagonal.
  DecisionShape decisions() const {
    return {1, layout_.chunk_bytes_max(),
            std::uint64_t(kDeviceBitBuffers) * layout_.chunk_bytes_max(), false};
  }
  std::uint64_t decision_offset(std::int64_t s) const {
    return std::uint64_t(layout_.offset[std::size_t(s)]) * 4;
  }

  template <class Store>
  void copy_out(const int*, Store* bits, cudaStream_t stream) {
    // H at the padded corner = LCS of the originals (padding matches nothing).
    const std::size_t M = std::size_t(g_.padded_cols), N = std::size_t(g_.padded_rows);
    CUDA_CHECK(cudaMemcpyAsync(&length_, h_row_.get() + (M - 1), sizeof(int),
                               cudaMemcpyDeviceToHost, stream));
    if (boundaries_) {
      boundaries_->rows_are_a = !g_.swapped;
      boundaries_->last_row.resize(M);
      boundaries_->last_col.resize(N);
      CUDA_CHECK(cudaMemcpyAsync(boundaries_->last_row.data(), h_row_.get(), h_row_.bytes(),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaMemcpyAsync(boundaries_->last_col.data(), v_col_.get(), v_col_.bytes(),
                                 cudaMemcpyDeviceToHost, stream));
    }
    if (bits) bits->copy_to_host(stream);
  }
  template <class Store>
  void reconstruct(const Store& bits) {
    subsequence_ = traceback(
        row_str_, col_str_,
        TileBitReader{&g_, &layout_, reinterpret_cast<const std::uint32_t*>(bits.host())});
  }
  void report(Context& ctx) const {
    if (cfg_.reconstruct) ctx.set("decision_bits_bytes", double(layout_.total_bytes()));
    ctx.set("tile_rows", double(g_.tile_rows));
    ctx.set("tile_cols", double(g_.tile_cols));
    ctx.set("tile_width_effective", double(g_.tile_width));
    ctx.set("widest_diagonal_tiles", double(g_.widest_diagonal()));
    ctx.set("padded_cells", double(g_.padded_rows) * double(g_.padded_cols));
  }

  int length() const { return length_; }
  std::string& subsequence() { return subsequence_; }

 private:
  LcsWavefrontConfig cfg_;
  TileGeometry g_;
  const std::string& row_str_;
  const std::string& col_str_;
  LcsTileBoundaries* boundaries_;
  BitsLayout layout_;
  gpu::DeviceBuffer<int> h_row_, v_col_, corner_;
  ReadOnly<std::uint16_t> ra_, rb_;
  int length_ = 0;
  std::string subsequence_;
};

}  // namespace dpgpu::wavefront
