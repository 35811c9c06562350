// knapsack_adapter.cuh — the 0-1 knapsack as an engine adapter: the grid is active items ×
// capacities 0..C, step d is anti-diagonal d (cell (i, c = d − i) at index i + kRowOffset of
// its slot), a cell reads diagonal d − 1 and diagonal d − 1 − w_i (window = w_max + 2), the
// recurrence runs in the engine's generic step kernel, the read-only inputs are the items'
// weights and values, and reconstruction keeps one decision bit per cell (one word per warp),
// walked back on the host (offload) or on the device (bits kept there).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "knapsack_config.hpp"
#include "knapsack_kernels.cuh"
#include "knapsack_trace.hpp"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {

// D[i][c] = max(D[i−1][c], D[i−1][c − w_i] + v_i), the second term only for c >= w_i.
// Surplus threads (c < 0, c > C, padding items of weight 0 and value 0) compute into cells
// nobody reads: a real cell only reads real cells of the row above, and each index holds one
// row only. Row −1 is index kRowOffset − 1 of every slot, zero and never written.
template <class T>
struct KnapsackRecurrence {
  using Cell = T;
  struct Inputs {
    ReadOnly<std::int32_t> weights;
    ReadOnly<std::uint32_t> values;
  };
  static constexpr bool kBitsByCell = true;  // word i / 32 of the diagonal's bit row
  __device__ __forceinline__ static int slot_index(int i) { return i + int(kRowOffset); }
  template <ReadPath P>
  __device__ __forceinline__ static T value(const Inputs& in, const StepRing<T>& r, int i,
                                            bool& taken) {
    const int c = r.step - i;
    const int w = fetch<P>(in.weights, i);
    const T v = knapsack_item_value<P, T>(in.values, i);
    const int idx = i + int(kRowOffset);
    T best = r.back1[idx - 1];
    taken = false;
    if (c >= w) {
      const T with = r.back(1 + w)[idx - 1] + v;  // d − 1 − w >= −1 here
      taken = with > best;
      best = taken ? with : best;
    }
    return best;
  }
};

template <class T>
class KnapsackAdapter {
 public:
  using Cell = T;
  using Recurrence = KnapsackRecurrence<T>;
  static constexpr bool kCellKernel = true;
  static constexpr AdapterHooks kHooks{
      .check_fits = true, .allocate = true, .after_steps = true, .report = true};

  KnapsackAdapter(const knapsack::Instance& x, const KnapsackWavefrontConfig& cfg,
                  const KnapsackGeometry& g)
      : x_(x), cfg_(cfg), g_(g), active_(gpu::knapsack_active_items(x)) {}

  std::int64_t steps() const { return g_.diagonals; }
  RingShape ring() const {
    return RingShape{int(g_.window), std::uint64_t(g_.diagonal_length), 0, true};
  }

  // Refuses, before allocating, what cannot fit on the device: the ring dominates.
  void check_fits(const EngineOptions&) const {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::uint64_t need = device_bytes(g_, cfg_);
    if (need > free_bytes)
      throw OutOfMemory("gpu.wavefront (knapsack): needs " + std::to_string(need) +
                        " device bytes (a ring of " + std::to_string(g_.window) + " diagonals x " +
                        std::to_string(g_.diagonal_length) + " cells x " +
                        std::to_string(g_.cell_bytes) + " B = " + std::to_string(g_.ring_bytes()) +
                        " B, plus items and decision bits), " + std::to_string(free_bytes) +
                        " of " + std::to_string(total_bytes) + " available");
  }
  void allocate(Context& ctx, cudaStream_t) {
    if (cfg_.reconstruct && !cfg_.offload)
      d_taken_ = gpu::DeviceBuffer<std::uint8_t>(std::size_t(g_.items), &ctx);
  }
  void upload(InputStore& store, T*, cudaStream_t) {
    const std::size_t rows = std::size_t(g_.padded_rows), words = sizeof(T) / 4;
    std::vector<std::int32_t> hw(rows, 0);  // padding items: weight 0, value 0
    std::vector<std::uint32_t> hv(rows * words, 0);
    for (std::size_t i = 0; i < active_.size(); ++i) {
      const std::size_t j = std::size_t(active_[i]);
      hw[i] = static_cast<std::int32_t>(x_.weight[j]);
      const auto v = static_cast<std::uint64_t>(x_.value[j]);
      hv[i * words] = static_cast<std::uint32_t>(v);
      if (words == 2) hv[i * 2 + 1] = static_cast<std::uint32_t>(v >> 32);
    }
    weights_ = store.add(hw.data(), hw.size(), "the item weights");
    values_ = store.add(hv.data(), hv.size(), "the item values");
    d_weights_ = weights_.ptr;
  }
  template <ReadPath P>
  typename Recurrence::Inputs inputs() const {
    return {weights_, values_};
  }
  // Rows lo .. hi of diagonal d, rounded out to whole blocks.
  CellRange cells(std::int64_t d) const {
    const std::int64_t block = cfg_.block;
    const std::int64_t lo = std::max<std::int64_t>(0, d - x_.capacity),
                       hi = std::min<std::int64_t>(g_.items - 1, d);
    const std::int64_t first_block = lo / block, last_block = hi / block;
    return {first_block * block, last_block - first_block + 1};
  }
  int block() const { return cfg_.block; }

  // Decision bits: words_per_diagonal words per diagonal, chunk_diagonals per offloaded chunk.
  DecisionShape decisions() const {
    const std::uint64_t chunk = std::uint64_t(g_.chunk_diagonals) * g_.bits_diagonal_bytes();
    return {std::max<std::int64_t>(1, g_.chunk_diagonals), chunk, 2 * chunk, true};
  }
  std::uint64_t decision_offset(std::int64_t d) const {
    return std::uint64_t(d) * g_.bits_diagonal_bytes();
  }

  // Bits kept on the device: walk them back there (one thread) and copy only the flags.
  template <class Store>
  int after_steps(const Store* bits, cudaStream_t stream) const {
    if (!bits || bits->offloaded()) return 0;
    knapsack_diagonal_trace<<<1, 32, 0, stream>>>(
        reinterpret_cast<const std::uint32_t*>(bits->device()), g_.words_per_diagonal, d_weights_,
        int(g_.items), x_.capacity, d_taken_.get());
    CUDA_CHECK_LAUNCH();
    return 1;
  }
  template <class Store>
  void copy_out(const T* last, Store* bits, cudaStream_t stream) {
    // The answer, cell (n − 1, C), lies on the last diagonal.
    CUDA_CHECK(cudaMemcpyAsync(&value_, last + (g_.items - 1) + kRowOffset, sizeof(T),
                               cudaMemcpyDeviceToHost, stream));
    if (bits && !bits->offloaded()) {
      taken_.resize(std::size_t(g_.items));
      CUDA_CHECK(cudaMemcpyAsync(taken_.data(), d_taken_.get(), d_taken_.bytes(),
                                 cudaMemcpyDeviceToHost, stream));
    }
  }
  // Item i was taken at capacity c when bit i of diagonal i + c is set.
  template <class Store>
  void reconstruct(const Store& bits) {
    if (bits.offloaded()) {
      const auto* words = reinterpret_cast<const std::uint32_t*>(bits.host());
      const std::int64_t wpd = g_.words_per_diagonal;
      items_ = gpu::knapsack_trace_items(active_, x_, [&](std::int64_t i, std::int64_t c) {
        return ((words[(i + c) * wpd + i / 32] >> (i % 32)) & 1u) != 0;
      });
    } else {
      items_ = gpu::knapsack_items_from_flags(active_, taken_.data());
    }
  }
  void report(Context& ctx) const {
    if (cfg_.reconstruct && cfg_.offload)
      ctx.set("offload_chunk_diagonals", double(g_.chunk_diagonals));
  }

  std::int64_t value() const { return static_cast<std::int64_t>(value_); }
  std::vector<std::int32_t>& items() { return items_; }

 private:
  const knapsack::Instance& x_;
  KnapsackWavefrontConfig cfg_;
  KnapsackGeometry g_;
  std::vector<std::int32_t> active_;
  ReadOnly<std::int32_t> weights_;
  ReadOnly<std::uint32_t> values_;
  const std::int32_t* d_weights_ = nullptr;
  gpu::DeviceBuffer<std::uint8_t> d_taken_;
  std::vector<std::uint8_t> taken_;
  T value_ = 0;
  std::vector<std::int32_t> items_;
};

}  // namespace dpgpu::wavefront
