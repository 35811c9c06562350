// knapsack_gpu.cu — gpu.pipeline for the 0-1 knapsack: the DP table as an S-DP table (paper
// section 4.3, knapsack_kernels.cuh), computed by the p-fold pipeline, traced on the device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "knapsack_kernels.cuh"
#include "launch_geometry.cuh"
#include "pipeline_solvers.hpp"

namespace dpgpu::pipeline {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;

constexpr ll kChunkSteps = ll(1) << 16;
constexpr ll kLaunchesPerCheck = 4096;

// One gpu.pipeline knapsack solve: the active items, the fold p, the device and pinned
// buffers and the launch tallies, with one member per phase in the order run() calls them.
template <class T>
struct KnapsackPipelineSolve {
  const knapsack::Instance& x;
  const PipelineConfig& cfg;
  Context& ctx;
  const char* name = "gpu.pipeline";
  const std::vector<std::int32_t> active = active_items(x);
  const ll rows = ll(active.size()), W = x.capacity + 1, total = (rows + 1) * W;
  const bool grid = cfg.sync == "grid";
  const void* widest = reinterpret_cast<const void*>(&knapsack_pipeline_persistent<T, true, 8>);
  const int resident = grid ? resident_blocks(widest, cfg.block, 0) : 1;
  const ll p = resolve_fold(cfg.p, knapsack_max_fold(x), 2, cfg.sync, knapsack_bound_reason(), name,
                            grid ? grid_fold_cap(resident, cfg.block, 2) : ll(INT64_MAX));
  const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream());
  DeviceBuffer<T> st, d_values;
  DeviceBuffer<int> d_weights;
  DeviceBuffer<unsigned char> d_taken;
  PinnedBuffer<T> h_values, h_best;
  PinnedBuffer<int> h_weights;
  PinnedBuffer<unsigned char> h_taken;
  const ll steps = pipeline_steps(total, W, 2, p);
  ll launches = 0;
  Persistent g;

  KnapsackPipelineSolve(const knapsack::Instance& x_, const PipelineConfig& cfg_, Context& ctx_)
      : x(x_), cfg(cfg_), ctx(ctx_) {}

  void allocate() {
    auto ph = ctx.phase("alloc");
    st = DeviceBuffer<T>(std::size_t(total), &ctx);
    d_values = DeviceBuffer<T>(std::size_t(std::max<ll>(rows, 1)), &ctx);
    d_weights = DeviceBuffer<int>(std::size_t(std::max<ll>(rows, 1)), &ctx);
    d_taken = DeviceBuffer<unsigned char>(std::size_t(std::max<ll>(rows, 1)), &ctx);
    h_values = PinnedBuffer<T>(std::size_t(std::max<ll>(rows, 1)));
    h_weights = PinnedBuffer<int>(std::size_t(std::max<ll>(rows, 1)));
    h_taken = PinnedBuffer<unsigned char>(std::size_t(std::max<ll>(rows, 1)));
    h_best = PinnedBuffer<T>(1);
  }

  void upload() {
    auto ph = ctx.phase("h2d");
    for (ll r = 0; r < rows; ++r) {
      h_weights[std::size_t(r)] = int(x.weight[std::size_t(active[std::size_t(r)])]);
      h_values[std::size_t(r)] = T(x.value[std::size_t(active[std::size_t(r)])]);
    }
    CUDA_CHECK(cudaMemsetAsync(st.get(), 0, std::size_t(W) * sizeof(T), stream));  // row 0
    CUDA_CHECK(cudaMemcpyAsync(d_weights.get(), h_weights.get(), std::size_t(rows) * sizeof(int),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_values.get(), h_values.get(), std::size_t(rows) * sizeof(T),
                               cudaMemcpyHostToDevice, stream));
  }

  // sync: launch — one knapsack_pipeline_step launch per step, waited for every
  // kLaunchesPerCheck launches (then the deadline).
  void launch_per_step() {
    T* stp = st.get();
    const int* wp = d_weights.get();
    const T* vp = d_values.get();
    g.threads = cfg.block;
    g.blocks = int((2 * p + cfg.block - 1) / cfg.block);
    for (ll s = 0; s < steps; ++s) {
      auto mark = ctx.profiled_launch();
      knapsack_pipeline_step<T><<<unsigned(g.blocks), unsigned(g.threads), 0, stream>>>(
          stp, wp, vp, W, total, p, W + (p - 1) + s * p);
      CUDA_CHECK_LAUNCH();
      if (++launches % kLaunchesPerCheck == 0) {
        CUDA_CHECK(cudaStreamSynchronize(stream));
        ctx.check_deadline();
      }
    }
  }

  // sync: grid or block — persistent kernels, all steps in one launch (grid) or kChunkSteps
  // per launch with the deadline checked between them (block).
  void launch_persistent_chunks() {
    T* stp = st.get();
    const int* wp = d_weights.get();
    const T* vp = d_values.get();
    g = persistent_geometry(2 * p, cfg, resident, name);
    with_per(g.per, [&](auto per) {
      constexpr int Per = decltype(per)::value;
      const void* kernel =
          grid ? reinterpret_cast<const void*>(&knapsack_pipeline_persistent<T, true, Per>)
               : reinterpret_cast<const void*>(&knapsack_pipeline_persistent<T, false, Per>);
      const ll chunk = grid ? steps : kChunkSteps;
      for (ll s0 = 0; s0 < steps; s0 += chunk) {
        ll s1 = std::min(steps, s0 + chunk), ww = W, tt = total, pp = p;
        void* args[] = {&stp, const_cast<int**>(&wp), const_cast<T**>(&vp), &ww, &tt, &pp, &s0,
                        &s1};
        auto mark = ctx.profiled_launch();
        launch_persistent(kernel, grid, g, args, 0, stream);
        ++launches;
        if (s1 < steps) {
          CUDA_CHECK(cudaStreamSynchronize(stream));
          ctx.check_deadline();
        }
      }
    });
  }

  // The steps, timed (step_ns), then the traceback launch.
  void compute() {
    auto ph = ctx.phase("compute");
    StepTimer timer(stream);
    if (steps > 0 && cfg.sync == "launch")
      launch_per_step();
    else if (steps > 0)
      launch_persistent_chunks();
    timer.finish();
    ctx.set("step_ns", steps > 0 ? timer.ms() * 1e6 / double(steps) : 0.0);
    if (rows > 0) {
      auto mark = ctx.profiled_launch();
      knapsack_trace<T>
          <<<1, 1, 0, stream>>>(st.get(), d_weights.get(), W, rows, x.capacity, d_taken.get());
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
  }

  // The best value (the table's last cell) and the items the traceback took.
  KnapsackPipelineResult copy_back() {
    KnapsackPipelineResult out;
    const T* stp = st.get();
    {
      auto ph = ctx.phase("d2h");
      CUDA_CHECK(cudaMemcpyAsync(h_best.get(), stp + total - 1, sizeof(T), cudaMemcpyDeviceToHost,
                                 stream));
      if (rows > 0)
        CUDA_CHECK(cudaMemcpyAsync(h_taken.get(), d_taken.get(), std::size_t(rows),
                                   cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      out.value = std::int64_t(h_best[0]);
      for (ll r = 0; r < rows; ++r)
        if (h_taken[std::size_t(r)]) out.items.push_back(active[std::size_t(r)]);
    }
    return out;
  }

  void set_counters() {
    ctx.set("p", double(p));
    ctx.set("max_p", double(knapsack_max_fold(x)));
    ctx.set("k", 2);
    ctx.set("rows", double(rows));
    ctx.set("width", double(W));
    ctx.set("steps", double(steps));
    ctx.set("paper_steps", double(paper_step_formula(total, W, 2, p)));
    ctx.set("threads", double(2 * p));
    ctx.set("blocks", double(g.blocks));
    ctx.set("block", double(g.threads));
    ctx.set("per_thread", double(g.per));
    ctx.set("kernel_launches", double(launches));
    ctx.set("cell_bits", 8.0 * sizeof(T));
  }
};

template <class T>
KnapsackPipelineResult run(const knapsack::Instance& x, const PipelineConfig& cfg, Context& ctx) {
  KnapsackPipelineSolve<T> s(x, cfg, ctx);
  s.allocate();
  s.upload();
  s.compute();
  KnapsackPipelineResult out = s.copy_back();
  s.set_counters();
  return out;
}

}  // namespace

std::optional<std::string> knapsack_grid_rule(const knapsack::Instance& x,
                                              const PipelineConfig& cfg) {
  const void* widest =
      knapsack_fits_32_bits(x)
          ? reinterpret_cast<const void*>(&knapsack_pipeline_persistent<unsigned, true, 8>)
          : reinterpret_cast<const void*>(
                &knapsack_pipeline_persistent<unsigned long long, true, 8>);
  return grid_rule(widest, 0, cfg, knapsack_max_fold(x), 2);
}

KnapsackPipelineResult knapsack_pipeline(const knapsack::Instance& x, const PipelineConfig& cfg,
                                         Context& ctx) {
  validate(cfg, "gpu.pipeline");
  if (x.capacity > kMaxDeviceCapacity)
    throw InputError("gpu.pipeline: capacity " + std::to_string(x.capacity) +
                     " exceeds 2^31 - 2 (32-bit device weights)");
  return knapsack_fits_32_bits(x) ? run<unsigned>(x, cfg, ctx)
                                  : run<unsigned long long>(x, cfg, ctx);
}

}  // namespace dpgpu::pipeline
