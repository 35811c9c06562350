// sdp_gpu.cu — drivers of the S-DP GPU solvers: upload, the schedule's launches, checksum,
// download. Kernels in pipeline_kernels.cuh.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "launch_geometry.cuh"
#include "pipeline_kernels.cuh"
#include "pipeline_solvers.hpp"

namespace dpgpu::pipeline {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;

constexpr ll kChunkSteps = ll(1) << 16;  // steps per launch of the one-block kernels
constexpr ll kLaunchesPerCheck = 4096;   // sync launch: launches between deadline checks

// The table on the device with ST[0..min(a0, n)-1] set, plus the offsets; and, at the end,
// the objective and checksum back.
template <class T>
struct Table {
  DeviceBuffer<T> st;
  DeviceBuffer<ll> offsets;
  DeviceBuffer<unsigned long long> sum;
  PinnedBuffer<T> h_init, h_last;
  PinnedBuffer<ll> h_offsets;
  PinnedBuffer<unsigned long long> h_sum;
  cudaStream_t stream;

  Table(const sdp::Instance& x, Context& ctx) : stream(static_cast<cudaStream_t>(ctx.stream())) {
    const ll init = std::min<ll>(x.a0(), x.n);
    {
      auto ph = ctx.phase("alloc");
      st = DeviceBuffer<T>(std::size_t(x.n), &ctx);
      offsets = DeviceBuffer<ll>(std::size_t(x.k()), &ctx);
      sum = DeviceBuffer<unsigned long long>(1, &ctx);
      h_init = PinnedBuffer<T>(std::size_t(init));
      h_last = PinnedBuffer<T>(1);
      h_offsets = PinnedBuffer<ll>(std::size_t(x.k()));
      h_sum = PinnedBuffer<unsigned long long>(1);
    }
    auto ph = ctx.phase("h2d");
    for (ll i = 0; i < init; ++i) h_init[std::size_t(i)] = T(x.init[std::size_t(i)]);
    for (ll t = 0; t < x.k(); ++t) h_offsets[std::size_t(t)] = x.offsets[std::size_t(t)];
    CUDA_CHECK(cudaMemcpyAsync(st.get(), h_init.get(), std::size_t(init) * sizeof(T),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(offsets.get(), h_offsets.get(), offsets.bytes(),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemsetAsync(sum.get(), 0, sizeof(unsigned long long), stream));
  }

  SdpGpuResult finish(const sdp::Instance& x, Context& ctx) {
    {
      auto ph = ctx.phase("checksum");
      auto mark = ctx.profiled_launch();
      const int blocks = std::max(1, std::min(4 * sm_count(), int((x.n + 255) / 256)));
      table_checksum<T><<<blocks, 256, 0, stream>>>(st.get(), x.n, sum.get());
      CUDA_CHECK_LAUNCH();
    }
    auto ph = ctx.phase("d2h");
    CUDA_CHECK(cudaMemcpyAsync(h_last.get(), st.get() + x.n - 1, sizeof(T), cudaMemcpyDeviceToHost,
                               stream));
    CUDA_CHECK(cudaMemcpyAsync(h_sum.get(), sum.get(), sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return {std::uint64_t(h_last[0]), std::uint64_t(h_sum[0])};
  }
};

void common_counters(const sdp::Instance& x, Context& ctx, std::size_t cell_bytes) {
  ctx.set("k", double(x.k()));
  ctx.set("max_p", double(max_fold(x.offsets)));
  ctx.set("cell_bits", 8.0 * double(cell_bytes));
}

template <class T, sdp::Op O>
SdpGpuResult run_pipeline(const sdp::Instance& x, const PipelineConfig& cfg, Context& ctx) {
  const char* name = "gpu.pipeline";
  const ll n = x.n, a0 = x.a0(), k = x.k();
  const std::size_t smem = offset_smem_bytes(int(k));
  const bool grid = cfg.sync == "grid";
  const void* widest = reinterpret_cast<const void*>(&sdp_pipeline_persistent<T, O, true, 8>);
  const int resident = grid ? resident_blocks(widest, cfg.block, smem) : 1;
  const ll p = resolve_fold(cfg.p, max_fold(x.offsets), k, cfg.sync, sdp_bound_reason(), name,
                            grid ? grid_fold_cap(resident, cfg.block, k) : ll(INT64_MAX));
  if (p * k > (ll(1) << 31) - 1)
    throw InputError(std::string(name) + ": p·k = " + std::to_string(p * k) +
                     " exceeds 2^31 - 1 threads");
  Table<T> tab(x, ctx);
  const ll steps = pipeline_steps(n, a0, k, p);
  const T mod = T(x.op == sdp::Op::add ? x.modulus : 0);
  T* st = tab.st.get();
  const ll* off = tab.offsets.get();
  int kk = int(k);
  ll launches = 0;
  Persistent g;
  {
    auto ph = ctx.phase("compute");
    StepTimer timer(tab.stream);
    if (steps > 0 && cfg.sync == "launch") {
      g.threads = cfg.block;
      g.blocks = int((p * k + cfg.block - 1) / cfg.block);
      for (ll s = 0; s < steps; ++s) {
        const ll head = a0 + (p - 1) + s * p;
        auto mark = ctx.profiled_launch();
        sdp_pipeline_step<T, O><<<unsigned(g.blocks), unsigned(g.threads), 0, tab.stream>>>(
            st, off, kk, n, a0, p, head, mod);
        CUDA_CHECK_LAUNCH();
        if (++launches % kLaunchesPerCheck == 0) {
          CUDA_CHECK(cudaStreamSynchronize(tab.stream));
          ctx.check_deadline();
        }
      }
    } else if (steps > 0) {
      g = persistent_geometry(p * k, cfg, resident, name);
      with_per(g.per, [&](auto per) {
        constexpr int Per = decltype(per)::value;
        const void* kernel =
            grid ? reinterpret_cast<const void*>(&sdp_pipeline_persistent<T, O, true, Per>)
                 : reinterpret_cast<const void*>(&sdp_pipeline_persistent<T, O, false, Per>);
        // sync grid: every step in one launch; sync block: chunks, so the deadline is polled.
        const ll chunk = grid ? steps : kChunkSteps;
        for (ll s0 = 0; s0 < steps; s0 += chunk) {
          ll s1 = std::min(steps, s0 + chunk);
          ll pp = p, nn = n, aa = a0;
          T m = mod;
          void* args[] = {&st, const_cast<ll**>(&off), &kk, &nn, &aa, &pp, &s0, &s1, &m};
          auto mark = ctx.profiled_launch();
          launch_persistent(kernel, grid, g, args, smem, tab.stream);
          ++launches;
          if (s1 < steps) {
            CUDA_CHECK(cudaStreamSynchronize(tab.stream));
            ctx.check_deadline();
          }
        }
      });
    }
    timer.finish();
    ctx.set("step_ns", steps > 0 ? timer.ms() * 1e6 / double(steps) : 0.0);
  }
  common_counters(x, ctx, sizeof(T));
  ctx.set("p", double(p));
  ctx.set("steps", double(steps));
  ctx.set("paper_steps", double(paper_step_formula(n, a0, k, p)));
  ctx.set("threads", double(p * k));
  ctx.set("blocks", double(g.blocks));
  ctx.set("block", double(g.threads));
  ctx.set("per_thread", double(g.per));
  ctx.set("kernel_launches", double(launches + 1));  // + the checksum
  return tab.finish(x, ctx);
}

// One-block kernels run in chunks of steps (elements), polling the deadline between launches.
template <class Launch>
ll run_chunks(ll total, Context& ctx, cudaStream_t stream, Launch&& launch) {
  ll launches = 0;
  for (ll s0 = 0; s0 < total; s0 += kChunkSteps) {
    const ll s1 = std::min(total, s0 + kChunkSteps);
    auto mark = ctx.profiled_launch();
    launch(s0, s1);
    CUDA_CHECK_LAUNCH();
    ++launches;
    if (s1 < total) {
      CUDA_CHECK(cudaStreamSynchronize(stream));
      ctx.check_deadline();
    }
  }
  return launches;
}

template <class T, sdp::Op O>
SdpGpuResult run_2x2(const sdp::Instance& x, Context& ctx) {
  const ll n = x.n, a0 = x.a0(), k = x.k();
  if (auto why = why_not_2x2(x.offsets); !why.empty()) throw InputError("gpu.pipeline2x2: " + why);
  const ll half = (k + 1) / 2;
  if (half > kBlockLimit)
    throw InputError("gpu.pipeline2x2: ceil(k/2) = " + std::to_string(half) +
                     " threads exceed one block (k <= 2048)");
  Table<T> tab(x, ctx);
  const ll steps = pipeline2x2_steps(n, a0, k);
  const T mod = T(x.op == sdp::Op::add ? x.modulus : 0);
  const unsigned threads = unsigned((half + 31) / 32 * 32);
  ll launches = 0;
  {
    auto ph = ctx.phase("compute");
    StepTimer timer(tab.stream);
    launches = run_chunks(steps, ctx, tab.stream, [&](ll s0, ll s1) {
      sdp_2x2_steps<T, O><<<1, threads, offset_smem_bytes(int(k)), tab.stream>>>(
          tab.st.get(), tab.offsets.get(), int(k), n, a0, s0, s1, mod);
    });
    timer.finish();
    ctx.set("step_ns", steps > 0 ? timer.ms() * 1e6 / double(steps) : 0.0);
  }
  common_counters(x, ctx, sizeof(T));
  ctx.set("p", 1);
  ctx.set("steps", double(steps));
  ctx.set("threads", double(half));
  ctx.set("kernel_launches", double(launches + 1));
  return tab.finish(x, ctx);
}

template <class T, sdp::Op O>
SdpGpuResult run_per_element(const sdp::Instance& x, Context& ctx, bool tournament) {
  const ll n = x.n, a0 = x.a0(), k = x.k();
  const char* name = tournament ? "gpu.prefix" : "gpu.inner_parallel";
  if (k > kBlockLimit)
    throw InputError(std::string(name) + ": k = " + std::to_string(k) +
                     " threads exceed one block (k <= 1024)");
  Table<T> tab(x, ctx);
  const ll elements = std::max<ll>(0, n - a0);
  const T mod = T(x.op == sdp::Op::add ? x.modulus : 0);
  unsigned threads = 32;
  while (threads < unsigned(k)) threads *= 2;  // power of two for the tournament
  if (!tournament) threads = unsigned((k + 31) / 32 * 32);
  int rounds = 0;
  while ((1ll << rounds) < k) ++rounds;
  ll launches = 0;
  {
    auto ph = ctx.phase("compute");
    StepTimer timer(tab.stream);
    launches = run_chunks(elements, ctx, tab.stream, [&](ll s0, ll s1) {
      const std::size_t smem = offset_smem_bytes(int(k));
      if (tournament)
        sdp_prefix_elements<T, O><<<1, threads, smem, tab.stream>>>(tab.st.get(), tab.offsets.get(),
                                                                    int(k), a0 + s0, a0 + s1, mod);
      else
        sdp_inner_parallel_elements<T, O><<<1, threads, smem, tab.stream>>>(
            tab.st.get(), tab.offsets.get(), int(k), a0 + s0, a0 + s1, mod);
    });
    timer.finish();
    const ll steps = tournament ? elements * std::max(1, rounds) : elements;
    ctx.set("steps", double(steps));
    ctx.set("step_ns", steps > 0 ? timer.ms() * 1e6 / double(steps) : 0.0);
  }
  common_counters(x, ctx, sizeof(T));
  ctx.set("threads", double(k));
  ctx.set("kernel_launches", double(launches + 1));
  return tab.finish(x, ctx);
}

// Dispatch on cell width and operator.
template <template <class, sdp::Op> class Fn, class... A>
auto dispatch(const sdp::Instance& x, A&&... a) {
  const bool narrow = sdp_fits_32_bits(x);
  switch (x.op) {
    case sdp::Op::max:
      return narrow ? Fn<unsigned, sdp::Op::max>::run(x, a...)
                    : Fn<unsigned long long, sdp::Op::max>::run(x, a...);
    case sdp::Op::min:
      return narrow ? Fn<unsigned, sdp::Op::min>::run(x, a...)
                    : Fn<unsigned long long, sdp::Op::min>::run(x, a...);
    case sdp::Op::add: break;
  }
  return narrow ? Fn<unsigned, sdp::Op::add>::run(x, a...)
                : Fn<unsigned long long, sdp::Op::add>::run(x, a...);
}

template <class T, sdp::Op O>
struct PipelineFn {
  static SdpGpuResult run(const sdp::Instance& x, const PipelineConfig& c, Context& ctx) {
    return run_pipeline<T, O>(x, c, ctx);
  }
};
template <class T, sdp::Op O>
struct GridRuleFn {
  static std::optional<std::string> run(const sdp::Instance& x, const PipelineConfig& c) {
    return grid_rule(reinterpret_cast<const void*>(&sdp_pipeline_persistent<T, O, true, 8>),
                     offset_smem_bytes(int(x.k())), c, max_fold(x.offsets), x.k());
  }
};
template <class T, sdp::Op O>
struct TwoByTwoFn {
  static SdpGpuResult run(const sdp::Instance& x, Context& ctx) { return run_2x2<T, O>(x, ctx); }
};
template <class T, sdp::Op O>
struct PrefixFn {
  static SdpGpuResult run(const sdp::Instance& x, Context& ctx) {
    return run_per_element<T, O>(x, ctx, true);
  }
};
template <class T, sdp::Op O>
struct InnerFn {
  static SdpGpuResult run(const sdp::Instance& x, Context& ctx) {
    return run_per_element<T, O>(x, ctx, false);
  }
};

}  // namespace

SdpGpuResult sdp_pipeline(const sdp::Instance& x, const PipelineConfig& cfg, Context& ctx) {
  validate(cfg, "gpu.pipeline");
  check_sdp_instance(x, "gpu.pipeline");
  return dispatch<PipelineFn>(x, cfg, ctx);
}

std::optional<std::string> sdp_grid_rule(const sdp::Instance& x, const PipelineConfig& cfg) {
  return dispatch<GridRuleFn>(x, cfg);
}

SdpGpuResult sdp_pipeline2x2(const sdp::Instance& x, Context& ctx) {
  check_sdp_instance(x, "gpu.pipeline2x2");
  return dispatch<TwoByTwoFn>(x, ctx);
}

SdpGpuResult sdp_prefix(const sdp::Instance& x, Context& ctx) {
  check_sdp_instance(x, "gpu.prefix");
  return dispatch<PrefixFn>(x, ctx);
}

SdpGpuResult sdp_inner_parallel(const sdp::Instance& x, Context& ctx) {
  check_sdp_instance(x, "gpu.inner_parallel");
  return dispatch<InnerFn>(x, ctx);
}

}  // namespace dpgpu::pipeline
