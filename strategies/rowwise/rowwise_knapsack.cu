// rowwise_knapsack.cu — gpu.rowwise's driver: uploads the active items, launches one
// knapsack_row per item, offloads or keeps the decision bits, and rebuilds the packing.
#include "rowwise_knapsack.hpp"

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
#include "knapsack_trace.hpp"
#include "readonly.cuh"
#include "rowwise_kernels.cuh"

namespace dpgpu::rowwise {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;
using wavefront::HostOffload;
using wavefront::ReadOnlyBinding;

constexpr std::int64_t kDeadlineEvery = 256;  // launches between deadline checks

struct DrainOnExit {
  cudaStream_t stream;
  ~DrainOnExit() { cudaStreamSynchronize(stream); }  // errors surface at ctx.end()
};

// One gpu.rowwise solve: the active items, the geometry, the device and pinned buffers and
// the offload engine, with one member per phase in the order run() calls them. The stream is
// drained (drain, the last member) before any buffer is freed.
template <class T, ReadPath P>
struct RowwiseSolve {
  const knapsack::Instance& x;
  const RowwiseConfig& cfg;
  const RowwiseGeometry& g;
  Context& ctx;
  const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream());
  const std::vector<std::int32_t> active = gpu::knapsack_active_items(x);
  const std::int64_t n = g.items;
  const int value_words = int(sizeof(T) / 4);
  const bool bits_on = cfg.reconstruct;
  const bool offload = cfg.reconstruct && cfg.offload;
  const std::int64_t wpr = g.words_per_row;

  // Destination of the offloaded bits: declared before the offload engine that writes into it.
  std::unique_ptr<std::uint8_t[]> host_bits;
  std::unique_ptr<HostOffload> engine;
  DeviceBuffer<T> d_row[2];
  DeviceBuffer<std::int32_t> d_weights;
  DeviceBuffer<std::uint32_t> d_values, d_bits;
  DeviceBuffer<std::uint8_t> d_taken;
  PinnedBuffer<std::int32_t> h_weights;
  PinnedBuffer<std::uint32_t> h_values;
  PinnedBuffer<T> h_result;
  PinnedBuffer<std::uint8_t> h_taken;
  const DrainOnExit drain{stream};

  RowwiseSolve(const knapsack::Instance& x_, const RowwiseConfig& cfg_, const RowwiseGeometry& g_,
               Context& ctx_)
      : x(x_), cfg(cfg_), g(g_), ctx(ctx_) {}

  void allocate() {
    auto phase = ctx.phase("alloc");
    for (auto& r : d_row) {
      r = DeviceBuffer<T>(std::size_t(g.padded_cells), &ctx);
      CUDA_CHECK(cudaMemsetAsync(r.get(), 0, r.bytes(), stream));  // row "-1": all zero
    }
    d_weights = DeviceBuffer<std::int32_t>(std::size_t(n), &ctx);
    d_values = DeviceBuffer<std::uint32_t>(std::size_t(n) * value_words, &ctx);
    if (offload) {
      d_bits = DeviceBuffer<std::uint32_t>(std::size_t(2 * g.chunk_rows * wpr), &ctx);
      host_bits.reset(new std::uint8_t[std::size_t(n) * g.bits_row_bytes()]);
      engine = std::make_unique<HostOffload>(std::size_t(cfg.offload_slots),
                                             std::size_t(g.chunk_rows) * g.bits_row_bytes(),
                                             host_bits.get());
    } else if (bits_on) {
      d_bits = DeviceBuffer<std::uint32_t>(std::size_t(n * wpr), &ctx);
      d_taken = DeviceBuffer<std::uint8_t>(std::size_t(n), &ctx);
      h_taken = PinnedBuffer<std::uint8_t>(std::size_t(n));
    }
    h_weights = PinnedBuffer<std::int32_t>(std::size_t(n));
    h_values = PinnedBuffer<std::uint32_t>(std::size_t(n) * value_words);
    h_result = PinnedBuffer<T>(1);
  }

  // The active items' weights and values (one or two 32-bit words each) to the device.
  void upload() {
    auto phase = ctx.phase("h2d");
    for (std::int64_t a = 0; a < n; ++a) {
      const std::size_t j = std::size_t(active[std::size_t(a)]);
      h_weights[std::size_t(a)] = static_cast<std::int32_t>(x.weight[j]);
      const auto v = static_cast<std::uint64_t>(x.value[j]);
      h_values[std::size_t(a) * value_words] = static_cast<std::uint32_t>(v);
      if (value_words == 2) h_values[std::size_t(a) * 2 + 1] = static_cast<std::uint32_t>(v >> 32);
    }
    CUDA_CHECK(cudaMemcpyAsync(d_weights.get(), h_weights.get(), d_weights.bytes(),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_values.get(), h_values.get(), d_values.bytes(),
                               cudaMemcpyHostToDevice, stream));
  }

  // One knapsack_row launch per active item (its decision bits kept, offloaded chunk by chunk,
  // or not written), then the traceback when the bits stay on the device; returns the launches.
  std::int64_t compute(const ReadOnlyBinding<std::int32_t>& weights,
                       const ReadOnlyBinding<std::uint32_t>& values) {
    std::int64_t launches = 0;
    {
      auto phase = ctx.phase("compute");
      // The copy of the chunk last pushed from each half.
      cudaEvent_t chunk_free[2] = {nullptr, nullptr};
      const auto block = unsigned(cfg.block);
      const auto grid = unsigned(g.blocks);
      for (std::int64_t a = 0; a < n; ++a) {
        const T* prev = d_row[a % 2].get();
        T* next = d_row[(a + 1) % 2].get();
        std::uint32_t* bits = nullptr;
        if (offload) {
          const std::int64_t half = (a / g.chunk_rows) % 2, row = a % g.chunk_rows;
          // First row of a chunk half still being copied out: the GPU waits for that copy.
          if (row == 0 && chunk_free[half]) HostOffload::release(chunk_free[half], stream);
          bits = d_bits.get() + (half * g.chunk_rows + row) * wpr;
        } else if (bits_on) {
          bits = d_bits.get() + a * wpr;
        }
        auto mark = ctx.profiled_launch();  // lets dpgpu's profiler sample launches across the run
        if (bits_on)
          knapsack_row<P, T, true>
              <<<grid, block, 0, stream>>>(prev, next, bits, weights.view(), values.view(), int(a));
        else
          knapsack_row<P, T, false><<<grid, block, 0, stream>>>(prev, next, nullptr, weights.view(),
                                                                values.view(), int(a));
        CUDA_CHECK_LAUNCH();
        ++launches;
        if (offload && ((a + 1) % g.chunk_rows == 0 || a + 1 == n)) {
          const std::int64_t first = a / g.chunk_rows * g.chunk_rows, half = (a / g.chunk_rows) % 2;
          chunk_free[half] = engine->push(d_bits.get() + half * g.chunk_rows * wpr,
                                          std::size_t(a + 1 - first) * g.bits_row_bytes(),
                                          std::size_t(first) * g.bits_row_bytes(), stream);
        }
        if ((a + 1) % kDeadlineEvery == 0) ctx.check_deadline();
      }
      if (bits_on && !offload) {
        knapsack_trace<<<1, 32, 0, stream>>>(d_bits.get(), wpr, d_weights.get(), int(n), x.capacity,
                                             d_taken.get());
        CUDA_CHECK_LAUNCH();
        ++launches;
      }
    }
    return launches;
  }

  // The best value back, and the packing rebuilt from the offloaded bits or the traced flags.
  RowwiseResult copy_back() {
    RowwiseResult out;
    {
      auto phase = ctx.phase("d2h");
      CUDA_CHECK(cudaMemcpyAsync(h_result.get(), d_row[n % 2].get() + x.capacity, sizeof(T),
                                 cudaMemcpyDeviceToHost, stream));
      if (bits_on && !offload)
        CUDA_CHECK(cudaMemcpyAsync(h_taken.get(), d_taken.get(), d_taken.bytes(),
                                   cudaMemcpyDeviceToHost, stream));
      if (engine) engine->finish();
      CUDA_CHECK(cudaStreamSynchronize(stream));
      out.value = static_cast<std::int64_t>(h_result[0]);
      if (offload) {
        // Item a was taken at capacity c when bit c of its row is set.
        const auto* words = reinterpret_cast<const std::uint32_t*>(host_bits.get());
        out.items = gpu::knapsack_trace_items(active, x, [&](std::int64_t a, std::int64_t c) {
          return ((words[a * wpr + c / 32] >> (c % 32)) & 1u) != 0;
        });
      } else if (bits_on) {
        out.items = gpu::knapsack_items_from_flags(active, h_taken.get());
      }
    }
    return out;
  }

  void set_counters(std::int64_t launches) {
    ctx.set("kernel_launches", double(launches));
    ctx.set("rows", double(n));
    if (engine) {
      engine->report(ctx);
      ctx.set("offload_chunk_rows", double(g.chunk_rows));
    } else {
      ctx.set("bytes_offloaded", 0);
      ctx.set("offload_wait_s", 0);
    }
  }
};

template <class T, ReadPath P>
RowwiseResult run(const knapsack::Instance& x, const RowwiseConfig& cfg, const RowwiseGeometry& g,
                  Context& ctx) {
  RowwiseSolve<T, P> s(x, cfg, g, ctx);
  s.allocate();
  s.upload();
  const ReadOnlyBinding<std::int32_t> weights(s.d_weights.get(), s.d_weights.size(), P);
  const ReadOnlyBinding<std::uint32_t> values(s.d_values.get(), s.d_values.size(), P);
  const std::int64_t launches = s.compute(weights, values);
  RowwiseResult out = s.copy_back();
  s.set_counters(launches);
  return out;
}

template <class T>
RowwiseResult run_path(const knapsack::Instance& x, const RowwiseConfig& cfg,
                       const RowwiseGeometry& g, Context& ctx) {
  switch (wavefront::read_path_from(cfg.readonly)) {
    case ReadPath::Texture: return run<T, ReadPath::Texture>(x, cfg, g, ctx);
    case ReadPath::Ldg: return run<T, ReadPath::Ldg>(x, cfg, g, ctx);
    case ReadPath::Plain: break;
  }
  return run<T, ReadPath::Plain>(x, cfg, g, ctx);
}

}  // namespace

RowwiseResult rowwise_knapsack(const knapsack::Instance& x, const RowwiseConfig& config,
                               Context& ctx) {
  validate(config);
  const RowwiseGeometry g = rowwise_geometry(x, config);
  ctx.set("cell_bits", 8.0 * g.cell_bytes);
  ctx.set("padded_cells", double(g.padded_cells));
  RowwiseResult out;
  if (g.items == 0) {  // nothing fits (or no items): the empty packing, no GPU work
    ctx.set("kernel_launches", 0);
    ctx.set("rows", 0);
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

}  // namespace dpgpu::rowwise
