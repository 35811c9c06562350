// knapsack_wavefront.cu — gpu.wavefront's knapsack driver: uploads the active items, launches
// one knapsack_diagonal per anti-diagonal over a ring of max_weight + 2 diagonals, offloads or
// keeps the decision bits, and rebuilds the packing.
#include "knapsack_wavefront.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "host_offload.cuh"
#include "knapsack_kernels.cuh"
#include "readonly.cuh"

namespace dpgpu::wavefront {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;

constexpr std::int64_t kDeadlineEvery = 256;  // launches between deadline checks

struct DrainOnExit {
  cudaStream_t stream;
  ~DrainOnExit() { cudaStreamSynchronize(stream); }  // errors surface at ctx.end()
};

std::vector<std::int32_t> active_items(const knapsack::Instance& x) {
  std::vector<std::int32_t> a;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) a.push_back(static_cast<std::int32_t>(j));
  return a;
}

// Item i was taken at capacity c when bit i of diagonal i + c is set; then the packing of
// the rows above fits c − w_i.
std::vector<std::int32_t> trace_on_host(const std::uint32_t* bits, std::int64_t words_per_diagonal,
                                        const std::vector<std::int32_t>& active, const knapsack::Instance& x) {
  std::vector<std::int32_t> items;
  std::int64_t c = x.capacity;
  for (std::int64_t i = std::int64_t(active.size()) - 1; i >= 0; --i) {
    const std::int64_t d = i + c;
    if ((bits[d * words_per_diagonal + i / 32] >> (i % 32)) & 1u) {
      items.push_back(active[std::size_t(i)]);
      c -= x.weight[std::size_t(active[std::size_t(i)])];
    }
  }
  return {items.rbegin(), items.rend()};
}

// Refuses, before allocating, what cannot fit on the device: the ring dominates.
void check_fits(const KnapsackGeometry& g, const KnapsackWavefrontConfig& cfg) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::uint64_t need = device_bytes(g, cfg);
  if (need > free_bytes)
    throw OutOfMemory("gpu.wavefront (knapsack): needs " + std::to_string(need) + " device bytes (a ring of " +
                      std::to_string(g.window) + " diagonals x " + std::to_string(g.diagonal_length) + " cells x " +
                      std::to_string(g.cell_bytes) + " B = " + std::to_string(g.ring_bytes()) +
                      " B, plus items and decision bits), " + std::to_string(free_bytes) + " of " +
                      std::to_string(total_bytes) + " available");
}

template <class T, ReadPath P>
KnapsackWavefrontResult run(const knapsack::Instance& x, const KnapsackWavefrontConfig& cfg, const KnapsackGeometry& g,
                            Context& ctx) {
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const std::vector<std::int32_t> active = active_items(x);
  const std::int64_t n = g.items, C = x.capacity, rows = g.padded_rows, L = g.diagonal_length;
  const int value_words = int(sizeof(T) / 4);
  const bool bits_on = cfg.reconstruct;
  const bool offload = cfg.reconstruct && cfg.offload;
  const std::int64_t wpd = g.words_per_diagonal;

  std::unique_ptr<std::uint8_t[]> host_bits;  // destination of the offload: outlives `engine`
  std::unique_ptr<HostOffload> engine;
  DeviceBuffer<T> d_ring;
  DeviceBuffer<std::int32_t> d_weights;
  DeviceBuffer<std::uint32_t> d_values, d_bits;
  DeviceBuffer<std::uint8_t> d_taken;
  PinnedBuffer<std::int32_t> h_weights;
  PinnedBuffer<std::uint32_t> h_values;
  PinnedBuffer<T> h_result;
  PinnedBuffer<std::uint8_t> h_taken;
  const DrainOnExit drain{stream};
  {
    auto phase = ctx.phase("alloc");
    check_fits(g, cfg);
    d_ring = DeviceBuffer<T>(std::size_t(g.window * L), &ctx);
    CUDA_CHECK(cudaMemsetAsync(d_ring.get(), 0, d_ring.bytes(), stream));  // row −1 and everything unread
    d_weights = DeviceBuffer<std::int32_t>(std::size_t(rows), &ctx);
    d_values = DeviceBuffer<std::uint32_t>(std::size_t(rows) * value_words, &ctx);
    if (offload) {
      d_bits = DeviceBuffer<std::uint32_t>(std::size_t(2 * g.chunk_diagonals * wpd), &ctx);
      host_bits.reset(new std::uint8_t[std::size_t(g.diagonals) * g.bits_diagonal_bytes()]);
      engine = std::make_unique<HostOffload>(std::size_t(cfg.offload_slots),
                                             std::size_t(g.chunk_diagonals) * g.bits_diagonal_bytes(), host_bits.get());
    } else if (bits_on) {
      d_bits = DeviceBuffer<std::uint32_t>(std::size_t(g.diagonals * wpd), &ctx);
      d_taken = DeviceBuffer<std::uint8_t>(std::size_t(n), &ctx);
      h_taken = PinnedBuffer<std::uint8_t>(std::size_t(n));
    }
    if (d_bits.size()) CUDA_CHECK(cudaMemsetAsync(d_bits.get(), 0, d_bits.bytes(), stream));  // words of unlaunched warps
    h_weights = PinnedBuffer<std::int32_t>(std::size_t(rows));
    h_values = PinnedBuffer<std::uint32_t>(std::size_t(rows) * value_words);
    h_result = PinnedBuffer<T>(1);
  }
  {
    auto phase = ctx.phase("h2d");
    for (std::int64_t i = 0; i < rows; ++i) {  // padding items: weight 0, value 0
      const bool real = i < n;
      const std::size_t j = real ? std::size_t(active[std::size_t(i)]) : 0;
      h_weights[std::size_t(i)] = real ? static_cast<std::int32_t>(x.weight[j]) : 0;
      const auto v = real ? static_cast<std::uint64_t>(x.value[j]) : 0;
      h_values[std::size_t(i) * value_words] = static_cast<std::uint32_t>(v);
      if (value_words == 2) h_values[std::size_t(i) * 2 + 1] = static_cast<std::uint32_t>(v >> 32);
    }
    CUDA_CHECK(cudaMemcpyAsync(d_weights.get(), h_weights.get(), d_weights.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_values.get(), h_values.get(), d_values.bytes(), cudaMemcpyHostToDevice, stream));
  }
  const ReadOnlyBinding<std::int32_t> weights(d_weights.get(), d_weights.size(), P);
  const ReadOnlyBinding<std::uint32_t> values(d_values.get(), d_values.size(), P);

  std::int64_t launches = 0;
  {
    auto phase = ctx.phase("compute");
    cudaEvent_t chunk_free[2] = {nullptr, nullptr};
    const std::int64_t block = cfg.block, window = g.window;
    for (std::int64_t d = 0; d < g.diagonals; ++d) {
      const std::int64_t lo = std::max<std::int64_t>(0, d - C), hi = std::min<std::int64_t>(n - 1, d);
      const std::int64_t first_block = lo / block, last_block = hi / block;
      std::uint32_t* bits = nullptr;
      if (offload) {
        const std::int64_t half = (d / g.chunk_diagonals) % 2, k = d % g.chunk_diagonals;
        if (k == 0 && chunk_free[half]) HostOffload::release(chunk_free[half], stream);
        bits = d_bits.get() + (half * g.chunk_diagonals + k) * wpd;
      } else if (bits_on) {
        bits = d_bits.get() + d * wpd;
      }
      T* current = d_ring.get() + (d % window) * L;
      const T* up = d_ring.get() + ((d + window - 1) % window) * L;
      const auto grid = unsigned(last_block - first_block + 1);
      auto mark = ctx.profiled_launch();  // lets dpgpu's profiler sample launches across the run
      if (bits_on)
        knapsack_diagonal<P, T, true><<<grid, unsigned(block), 0, stream>>>(
            d_ring.get(), current, up, int(L), int(window), int(d), int(first_block * block), weights.view(),
            values.view(), bits);
      else
        knapsack_diagonal<P, T, false><<<grid, unsigned(block), 0, stream>>>(
            d_ring.get(), current, up, int(L), int(window), int(d), int(first_block * block), weights.view(),
            values.view(), nullptr);
      CUDA_CHECK_LAUNCH();
      ++launches;
      if (offload && ((d + 1) % g.chunk_diagonals == 0 || d + 1 == g.diagonals)) {
        const std::int64_t first = d / g.chunk_diagonals * g.chunk_diagonals, half = (d / g.chunk_diagonals) % 2;
        chunk_free[half] = engine->push(d_bits.get() + half * g.chunk_diagonals * wpd,
                                        std::size_t(d + 1 - first) * g.bits_diagonal_bytes(),
                                        std::size_t(first) * g.bits_diagonal_bytes(), stream);
      }
      if ((d + 1) % kDeadlineEvery == 0) ctx.check_deadline();
    }
    if (bits_on && !offload) {
      knapsack_diagonal_trace<<<1, 32, 0, stream>>>(d_bits.get(), wpd, d_weights.get(), int(n), C, d_taken.get());
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
  }
  KnapsackWavefrontResult out;
  {
    auto phase = ctx.phase("d2h");
    // The answer, cell (n − 1, C), lies on the last diagonal.
    const T* answer = d_ring.get() + ((g.diagonals - 1) % g.window) * L + (n - 1) + kRowOffset;
    CUDA_CHECK(cudaMemcpyAsync(h_result.get(), answer, sizeof(T), cudaMemcpyDeviceToHost, stream));
    if (bits_on && !offload)
      CUDA_CHECK(cudaMemcpyAsync(h_taken.get(), d_taken.get(), d_taken.bytes(), cudaMemcpyDeviceToHost, stream));
    if (engine) engine->finish();
    CUDA_CHECK(cudaStreamSynchronize(stream));
    out.value = static_cast<std::int64_t>(h_result[0]);
    if (offload) {
      out.items = trace_on_host(reinterpret_cast<const std::uint32_t*>(host_bits.get()), wpd, active, x);
    } else if (bits_on) {
      std::vector<std::int32_t> items;
      for (std::int64_t i = 0; i < n; ++i)
        if (h_taken[std::size_t(i)]) items.push_back(active[std::size_t(i)]);
      out.items = std::move(items);
    }
  }
  ctx.set("kernel_launches", double(launches));
  if (engine) {
    engine->report(ctx);
    ctx.set("offload_chunk_diagonals", double(g.chunk_diagonals));
  } else {
    ctx.set("bytes_offloaded", 0);
    ctx.set("offload_wait_s", 0);
  }
  return out;
}

template <class T>
KnapsackWavefrontResult run_path(const knapsack::Instance& x, const KnapsackWavefrontConfig& cfg,
                                 const KnapsackGeometry& g, Context& ctx) {
  switch (read_path_from(cfg.readonly)) {
    case ReadPath::Texture: return run<T, ReadPath::Texture>(x, cfg, g, ctx);
    case ReadPath::Ldg: return run<T, ReadPath::Ldg>(x, cfg, g, ctx);
    case ReadPath::Plain: break;
  }
  return run<T, ReadPath::Plain>(x, cfg, g, ctx);
}

}  // namespace

KnapsackWavefrontResult knapsack_wavefront(const knapsack::Instance& x, const KnapsackWavefrontConfig& config,
                                           Context& ctx) {
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
    if (config.reconstruct) out.items = std::vector<std::int32_t>{};
  } else if (g.cell_bytes == 4) {
    out = run_path<std::int32_t>(x, config, g, ctx);
  } else {
    out = run_path<std::int64_t>(x, config, g, ctx);
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return out;
}

}  // namespace dpgpu::wavefront
