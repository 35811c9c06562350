// The CUPTI backend on the GPU, on kernels whose metrics are known in advance: a fully
// coalesced copy reads whole sectors (global load efficiency 100 %) with every thread busy
// (warp execution efficiency 100 %); a kernel whose odd lanes idle through its loop runs at
// about 50 % warp execution efficiency. Marks are sampled every k-th as the runner does.
// Prints the profiler's cost per launch (the numbers the report quotes come from dpgpu runs).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "../strategies/common/require_device.hpp"
#include "dpgpu/context.hpp"
#include "profile/profiler.hpp"
#include "profile/profiler_cupti.hpp"

namespace {

__global__ void coalesced_copy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// Even lanes spin through `steps` dependent multiply-adds; odd lanes wait at the branch.
__global__ void half_warp_idle(float* out, int steps) {
  float x = float(threadIdx.x);
  if ((threadIdx.x & 1) == 0)
    for (int s = 0; s < steps; ++s) x = x * 0.999f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

struct Buffers {
  float *in = nullptr, *out = nullptr;
  int n = 1 << 22;
  Buffers() {
    EXPECT_EQ(cudaMalloc(&in, n * sizeof(float)), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&out, n * sizeof(float)), cudaSuccess);
    EXPECT_EQ(cudaMemset(in, 1, n * sizeof(float)), cudaSuccess);
  }
  ~Buffers() {
    cudaFree(in);
    cudaFree(out);
  }
};

dpgpu::ProfileRequest paper_three(std::int64_t max_launches) {
  dpgpu::ProfileRequest r;
  for (auto& m : dpgpu::resolve_metrics(dpgpu::default_metrics()))
    r.names.push_back(m.name), r.metrics.push_back(m.ncu);
  r.max_launches = max_launches;
  return r;
}

const dpgpu::MetricRecord* find(const dpgpu::ProfileRecord& p, const std::string& kernel_part,
                                const std::string& metric) {
  for (auto& s : p.stats)
    if (s.kernel.find(kernel_part) != std::string::npos && s.metric == metric) return &s;
  return nullptr;
}

}  // namespace

TEST(ProfilerCuptiGpu, KnownKernelsGiveKnownMetrics) {
  REQUIRE_DEVICE();
  if (!dpgpu::cupti_built()) GTEST_SKIP() << "dpgpu built without CUPTI";
  Buffers b;
  cudaDeviceSynchronize();
  const auto t0 = std::chrono::steady_clock::now();
  dpgpu::ProfileRecord p = dpgpu::profile_with_cupti(
      paper_three(20), 2, 2, [&](dpgpu::LaunchMarkSink* sink, std::uint64_t stride) -> std::string {
        dpgpu::Context ctx(dpgpu::Backend::Gpu,
                           dpgpu::Context::Clock::now() + std::chrono::seconds(60));
        ctx.profile_marks(sink, stride);
        auto s = static_cast<cudaStream_t>(ctx.stream());
        {
          auto mark = ctx.profiled_launch();
          coalesced_copy<<<b.n / 256, 256, 0, s>>>(b.in, b.out, b.n);
        }
        {
          auto mark = ctx.profiled_launch();
          half_warp_idle<<<1024, 256, 0, s>>>(b.out, 4096);
        }
        return cudaStreamSynchronize(s) == cudaSuccess ? "" : "kernel failed";
      });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("CUPTI profile of 2 launches: %.3f s (ok %d, %s)\n", wall, int(p.ok),
              p.message.c_str());
  for (auto& s : p.stats)
    std::printf("  %-40.40s %-28s %10.4g %s (n=%lld)\n", s.kernel.c_str(), s.metric.c_str(), s.mean,
                s.unit.c_str(), (long long)s.count);
  ASSERT_TRUE(p.ok) << p.message;
  EXPECT_EQ(p.backend, "cupti");

  auto* copy_ld = find(p, "coalesced_copy", "gld_efficiency");
  auto* copy_we = find(p, "coalesced_copy", "warp_execution_efficiency");
  auto* half_we = find(p, "half_warp_idle", "warp_execution_efficiency");
  auto* half_ipc = find(p, "half_warp_idle", "ipc");
  ASSERT_TRUE(copy_ld && copy_we && half_we && half_ipc)
      << "kernel names come from the launch callbacks";
  EXPECT_EQ(copy_ld->count, 1);
  EXPECT_NEAR(copy_ld->mean, 100.0, 1.0);
  EXPECT_EQ(copy_ld->unit, "%");
  EXPECT_NEAR(copy_we->mean, 100.0, 1.0);
  EXPECT_NEAR(half_we->mean, 50.0, 3.0);
  EXPECT_GT(half_ipc->mean, 0.05);
  EXPECT_LT(half_ipc->mean, 4.0) << "an SM issues at most 4 warp instructions a cycle";
}

TEST(ProfilerCuptiGpu, EveryKthMarkIsSampled) {
  REQUIRE_DEVICE();
  if (!dpgpu::cupti_built()) GTEST_SKIP() << "dpgpu built without CUPTI";
  Buffers b;
  const int marks = 10;
  // 10 marked launches, at most 4 profiled: every 3rd (0, 3, 6, 9).
  const auto t0 = std::chrono::steady_clock::now();
  dpgpu::ProfileRecord p = dpgpu::profile_with_cupti(
      paper_three(4), marks, marks,
      [&](dpgpu::LaunchMarkSink* sink, std::uint64_t stride) -> std::string {
        dpgpu::Context ctx(dpgpu::Backend::Gpu,
                           dpgpu::Context::Clock::now() + std::chrono::seconds(60));
        ctx.profile_marks(sink, stride);
        auto s = static_cast<cudaStream_t>(ctx.stream());
        for (int i = 0; i < marks; ++i) {
          auto mark = ctx.profiled_launch();
          coalesced_copy<<<b.n / 256, 256, 0, s>>>(b.in, b.out, b.n);
        }
        return cudaStreamSynchronize(s) == cudaSuccess ? "" : "kernel failed";
      });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("CUPTI profile of 4 of 10 launches: %.3f s (%s)\n", wall, p.sampling.c_str());
  ASSERT_TRUE(p.ok) << p.message;
  EXPECT_EQ(p.sampling, "every 3th of 10");
  auto* ld = find(p, "coalesced_copy", "gld_efficiency");
  ASSERT_TRUE(ld);
  EXPECT_EQ(ld->count, 4);
}

TEST(ProfilerCuptiGpu, UnknownMetricIsAnErrorNotAFallBack) {
  REQUIRE_DEVICE();
  if (!dpgpu::cupti_built()) GTEST_SKIP() << "dpgpu built without CUPTI";
  dpgpu::ProfileRequest r{{"nonsense"}, {"sm__no_such_metric.sum"}, 5};
  bool solved = false;
  dpgpu::ProfileRecord p =
      dpgpu::profile_with_cupti(r, 1, 1, [&](dpgpu::LaunchMarkSink*, std::uint64_t) {
        solved = true;
        return std::string();
      });
  EXPECT_FALSE(p.ok);
  EXPECT_FALSE(p.unavailable) << "ncu would not know it either";
  EXPECT_NE(p.message.find("sm__no_such_metric.sum"), std::string::npos) << p.message;
  EXPECT_FALSE(solved) << "the metric is checked before the solve";
}

namespace {

// Reads `n` floats and writes nothing (unless one equals the impossible `magic`): its L2
// lookups are its loads alone.
__global__ void reread(const float* in, int n, float magic, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] == magic) *out = in[i];
}

// One solve: the buffer read once to warm the L2, then read again inside the marked range.
dpgpu::ProfileRecord reread_profile(bool flush, const Buffers& b, int n) {
  dpgpu::ProfileRequest r{
      {"l2_misses", "l2_hits", "no_instruction_stalls"},
      {"lts__t_sectors_srcunit_tex_lookup_miss.sum", "lts__t_sectors_srcunit_tex_lookup_hit.sum",
       "smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio"},
      5,
      flush};
  return dpgpu::profile_with_cupti(
      r, 2, 1, [&](dpgpu::LaunchMarkSink* sink, std::uint64_t stride) -> std::string {
        dpgpu::Context ctx(dpgpu::Backend::Gpu,
                           dpgpu::Context::Clock::now() + std::chrono::seconds(60));
        ctx.profile_marks(sink, stride);
        auto s = static_cast<cudaStream_t>(ctx.stream());
        reread<<<n / 256, 256, 0, s>>>(b.in, n, -1.0f, b.out);
        {
          auto mark = ctx.profiled_launch();
          reread<<<n / 256, 256, 0, s>>>(b.in, n, -1.0f, b.out);
        }
        return cudaStreamSynchronize(s) == cudaSuccess ? "" : "kernel failed";
      });
}

}  // namespace

// cache_control all empties the caches before a profiled range (CacheFlush): a 4 MB buffer
// the solve has just read misses in the L2 again, and the kernel waits for its instructions;
// cache_control none leaves both warm.
TEST(ProfilerCuptiGpu, CacheFlushEmptiesTheL2AndInstructionCaches) {
  REQUIRE_DEVICE();
  if (!dpgpu::cupti_built()) GTEST_SKIP() << "dpgpu built without CUPTI";
  Buffers b;
  const int n = 1 << 20;  // 4 MB of floats: 131,072 sectors of 32 bytes, far below the L2
  const dpgpu::ProfileRecord cold = reread_profile(true, b, n), warm = reread_profile(false, b, n);
  ASSERT_TRUE(cold.ok) << cold.message;
  ASSERT_TRUE(warm.ok) << warm.message;
  auto value = [](const dpgpu::ProfileRecord& p, const char* metric) {
    auto* s = find(p, "reread", metric);
    EXPECT_TRUE(s) << metric;
    return s ? s->mean : -1.0;
  };
  const double cold_miss = value(cold, "l2_misses"), cold_hit = value(cold, "l2_hits");
  const double warm_miss = value(warm, "l2_misses"), warm_hit = value(warm, "l2_hits");
  const double cold_stall = value(cold, "no_instruction_stalls"),
               warm_stall = value(warm, "no_instruction_stalls");
  std::printf(
      "flushed: %.0f misses, %.0f hits, %.3f no-instruction stalls; warm: %.0f misses, %.0f hits, "
      "%.3f\n",
      cold_miss, cold_hit, cold_stall, warm_miss, warm_hit, warm_stall);
  const double sectors = n * sizeof(float) / 32.0;
  EXPECT_GT(cold_miss, 0.9 * sectors) << "the flushed L2 still held the buffer";
  // Warm, the H100 still missed 9-13 % (the L2's two halves): far below the flushed 100 %.
  EXPECT_LT(warm_miss, 0.3 * sectors) << "without the flush the buffer stays in the L2";
  EXPECT_GT(cold_stall, warm_stall) << "after the flush the kernel's code is fetched again";
}
