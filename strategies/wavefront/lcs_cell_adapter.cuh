// lcs_cell_adapter.cuh — LCS cell mode (the paper's model) as an engine adapter: the grid is
// |a| × |b| cells, step s is anti-diagonal k = s + 2, a cell reads the two previous diagonals
// (window 3, each padded to whole blocks, index = row), the recurrence is lcs_cell_value
// (lcs_cell_kernel.cuh) run by the engine's generic step kernel, the read-only inputs are the
// two strings with guard bytes, and reconstruction keeps one ballot word per warp per step.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "dpgpu/error.hpp"
#include "lcs_cell_kernel.cuh"
#include "lcs_geometry.hpp"
#include "lcs_traceback.hpp"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {

struct LcsCellRecurrence {
  using Cell = int;
  struct Inputs {
    ReadOnly<std::uint8_t> a, b;
    int b_origin;
  };
  static constexpr bool kBitsByCell = false;  // word x / 32 of the step's bits for thread x
  __device__ __forceinline__ static int slot_index(int i) { return i; }
  template <ReadPath P>
  __device__ __forceinline__ static int value(const Inputs& in, const StepRing<int>& r, int i,
                                              bool& decision) {
    return lcs_cell_value<P>(in.a, in.b, in.b_origin, r.back2, r.back1, r.step + 2, i, decision);
  }
};

// Checks, before allocating, that the decision bits kept whole on the device fit.
inline void check_bits_fit_device(const BitsLayout& layout, const EngineOptions& o) {
  if (!o.decisions || o.offload) return;
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (layout.total_bytes() > free_bytes)
    throw OutOfMemory("gpu.wavefront: reconstruct with offload = false keeps all " +
                      std::to_string(layout.total_bytes()) +
                      " bytes of decision bits on the device, but only " +
                      std::to_string(free_bytes) + " of " + std::to_string(total_bytes) +
                      " bytes are free; use offload = true");
}

class LcsCellAdapter {
 public:
  using Cell = int;
  using Recurrence = LcsCellRecurrence;
  static constexpr bool kCellKernel = true;
  static constexpr AdapterHooks kHooks{.check_fits = true, .report = true};

  LcsCellAdapter(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg)
      : a_(a),
        b_(b),
        cfg_(cfg),
        g_(cell_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg)) {
    if (cfg.reconstruct) layout_ = cell_bits_layout(g_);
  }

  std::int64_t steps() const { return g_.diagonals(); }
  RingShape ring() const { return RingShape{3, std::uint64_t(g_.diagonal_length), 0, true}; }
  void check_fits(const EngineOptions& o) const { check_bits_fit_device(layout_, o); }

  void upload(InputStore& store, int*, cudaStream_t) {
    std::vector<std::uint8_t> ha(std::size_t(g_.a_length)),
        hb(std::size_t(g_.b_length));  // pageable: see the tile adapter
    fill_cell_symbols(a_, 0, ha.data(), ha.size());
    fill_cell_symbols(b_, std::size_t(cfg_.block), hb.data(), hb.size());
    ra_ = store.add(ha.data(), ha.size(), "string a");
    rb_ = store.add(hb.data(), hb.size(), "string b");
  }
  // b through ldg/plain: the pointer past the left guards; through a texture: the texture
  // over the whole array, indexed with the guards' count added.
  template <ReadPath P>
  Recurrence::Inputs inputs() const {
    Recurrence::Inputs in{ra_, rb_, cfg_.block};
    if constexpr (P != ReadPath::Texture) in.b.ptr += cfg_.block;
    return in;
  }
  CellRange cells(std::int64_t s) const {
    const CellLaunch l = cell_launch(g_, s + 2);
    return {l.first_row, l.blocks};
  }
  int block() const { return cfg_.block; }

  // Decision bits: unit s = diagonal s + 2, kCellBatch diagonals per offloaded chunk.
  DecisionShape decisions() const {
    return {kCellBatch, layout_.chunk_bytes_max(),
            std::uint64_t(kDeviceBitBuffers) * layout_.chunk_bytes_max(), false};
  }
  std::uint64_t decision_offset(std::int64_t s) const {
    return std::uint64_t(layout_.offset[std::size_t(s)]) * 4;
  }

  template <class Store>
  void copy_out(const int* last, Store* bits, cudaStream_t stream) {
    // H at (n, m) on the last diagonal, index n.
    CUDA_CHECK(
        cudaMemcpyAsync(&length_, last + g_.rows, sizeof(int), cudaMemcpyDeviceToHost, stream));
    if (bits) bits->copy_to_host(stream);
  }
  template <class Store>
  void reconstruct(const Store& bits) {
    subsequence_ = traceback(
        a_, b_, CellBitReader{&g_, &layout_, reinterpret_cast<const std::uint32_t*>(bits.host())});
  }
  void report(Context& ctx) const {
    if (cfg_.reconstruct) ctx.set("decision_bits_bytes", double(layout_.total_bytes()));
  }

  int length() const { return length_; }
  std::string& subsequence() { return subsequence_; }

 private:
  const std::string& a_;
  const std::string& b_;
  LcsWavefrontConfig cfg_;
  CellGeometry g_;
  BitsLayout layout_;
  ReadOnly<std::uint8_t> ra_, rb_;
  int length_ = 0;
  std::string subsequence_;
};

}  // namespace dpgpu::wavefront
