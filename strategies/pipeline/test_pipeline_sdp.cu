// GPU S-DP solvers against cpu.serial (objective and checksum) on every generator and
// operator, k = 1, n <= a0, 64-bit cells, the largest valid p, every sync mode; the step
// counters against the formula; refusals. Skipped without a GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>

#include "device_buffer.cuh"
#include "require_device.hpp"
#include "dpgpu/error.hpp"
#include "pipeline_solvers.hpp"
#include "sdp/generators.hpp"
#include "sdp_cpu.hpp"

namespace dpgpu::pipeline {
namespace {

Context make_ctx() {
  return Context(Backend::Gpu, Context::Clock::now() + std::chrono::minutes(5));
}

std::vector<sdp::Instance> corpus() {
  using sdp::Op;
  std::vector<sdp::Instance> v;
  std::uint64_t seed = 100;
  for (Op op : {Op::min, Op::max, Op::add}) {
    for (std::int64_t n : {1, 4, 37, 1000, 5003}) {
      v.push_back(sdp::make_instance(n, op, 1000000007, sdp::consecutive_offsets(5), 1000, ++seed));
      v.push_back(sdp::make_instance(n, op, 97, sdp::strided_offsets(3, 7), 1u << 20, ++seed));
      v.push_back(sdp::make_instance(n, op, 1000000007, sdp::random_offsets(6, 60, seed), 1u << 30,
                                     ++seed));
      v.push_back(sdp::make_instance(n, op, 1000000007, {9}, 1000, ++seed));  // k = 1
    }
  }
  v.push_back(
      sdp::make_instance(4000, Op::max, 1, sdp::strided_offsets(4, 9), std::uint64_t{1} << 40, 7));
  v.push_back(sdp::make_instance(4000, Op::add, (std::uint64_t{1} << 40) + 15,
                                 sdp::strided_offsets(4, 9), std::uint64_t{1} << 40, 8));
  return v;
}

std::string label(const sdp::Instance& x) {
  return "n=" + std::to_string(x.n) + " k=" + std::to_string(x.k()) +
         " a0=" + std::to_string(x.a0()) + " op=" + sdp::to_string(x.op);
}

void expect_agrees(const sdp::Instance& x, const SdpGpuResult& got, const std::string& what) {
  const sdp::cpu::TableAnswer ref = sdp::cpu::serial(x);
  EXPECT_EQ(got.objective, ref.objective) << what << " " << label(x);
  EXPECT_EQ(got.checksum, ref.checksum) << what << " " << label(x);
}

TEST(PipelineGpu, EverySyncModeAndFoldAgreesWithSerial) {
  REQUIRE_DEVICE();
  for (const auto& x : corpus()) {
    const std::int64_t pmax = max_fold(x.offsets);
    for (std::int64_t p : {std::int64_t{1}, std::max<std::int64_t>(1, pmax / 2), pmax}) {
      for (const char* sync : {"block", "grid", "launch"}) {
        if (std::string(sync) == "block" && p * x.k() > kBlockLimit) continue;
        PipelineConfig c;
        c.p = p;
        c.sync = sync;
        Context ctx = make_ctx();
        expect_agrees(x, sdp_pipeline(x, c, ctx),
                      std::string("pipeline ") + sync + " p=" + std::to_string(p));
        EXPECT_EQ(ctx.counters().at("steps"), double(pipeline_steps(x.n, x.a0(), x.k(), p)));
      }
    }
  }
}

TEST(PipelineGpu, OtherSolversAgreeWithSerial) {
  REQUIRE_DEVICE();
  for (const auto& x : corpus()) {
    Context c1 = make_ctx(), c2 = make_ctx(), c3 = make_ctx();
    expect_agrees(x, sdp_pipeline2x2(x, c1), "pipeline2x2");
    expect_agrees(x, sdp_prefix(x, c2), "prefix");
    expect_agrees(x, sdp_inner_parallel(x, c3), "inner_parallel");
  }
}

TEST(PipelineGpu, ThreadsCarryingSeveralItemsAndFewBlocks) {
  REQUIRE_DEVICE();
  // p·k = 8192 work items on 1..4 blocks of 256: 8 down to 8 per thread (register carry).
  auto x = sdp::make_instance(300000, sdp::Op::add, 1000000007, sdp::strided_offsets(8, 1024),
                              1u << 30, 3);
  for (std::int64_t blocks : {1, 2, 4}) {
    PipelineConfig c;
    c.p = 1024;
    c.block = 1024 / int(blocks) < 32 ? 32 : 1024 / int(blocks);
    c.blocks = blocks;
    Context ctx = make_ctx();
    expect_agrees(x, sdp_pipeline(x, c, ctx), "grid blocks=" + std::to_string(blocks));
    EXPECT_GE(ctx.counters().at("per_thread"), 2.0);
  }
}

TEST(PipelineGpu, BlockSyncAcrossSeveralLaunchesParksPartials) {
  REQUIRE_DEVICE();
  // > 65536 steps: the one-block kernel runs in chunks, parking partial values in ST.
  auto x = sdp::make_instance(150000, sdp::Op::min, 1, sdp::random_offsets(7, 40, 5), 1u << 30, 5);
  PipelineConfig c;
  c.p = 1;
  c.sync = "block";
  Context ctx = make_ctx();
  expect_agrees(x, sdp_pipeline(x, c, ctx), "block chunks");
  EXPECT_GE(ctx.counters().at("kernel_launches"), 3.0);
  Context c2 = make_ctx();
  expect_agrees(x, sdp_pipeline2x2(x, c2), "2x2 chunks");
}

TEST(PipelineGpu, LargestFoldOfTheTargetShape) {
  REQUIRE_DEVICE();
  // The performance case's shape, smaller: k = 16, stride 4096, op max, p = 4096.
  auto x =
      sdp::make_instance(1 << 20, sdp::Op::max, 1, sdp::strided_offsets(16, 4096), 1u << 31, 11);
  PipelineConfig c;  // p = 0: the largest valid
  Context ctx = make_ctx();
  expect_agrees(x, sdp_pipeline(x, c, ctx), "grid p=max");
  EXPECT_EQ(ctx.counters().at("p"), 4096.0);
}

TEST(PipelineGpu, InvalidFoldIsRefused) {
  REQUIRE_DEVICE();
  auto x = sdp::make_instance(1000, sdp::Op::max, 1, {10, 8, 5}, 100, 1);
  PipelineConfig c;
  c.p = 4;
  Context ctx = make_ctx();
  try {
    sdp_pipeline(x, c, ctx);
    FAIL() << "p = 4 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("largest valid fold 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dpgpu::pipeline

namespace dpgpu::pipeline {
namespace {

// Small cases for compute-sanitizer (memcheck, racecheck): every solver and sync mode once,
// on a 32-bit and a 64-bit instance, plus the chunked one-block path.
TEST(PipelineGpuSanitize, SmallCases) {
  REQUIRE_DEVICE();
  std::vector<sdp::Instance> xs{
      sdp::make_instance(700, sdp::Op::add, 1000000007, sdp::consecutive_offsets(5), 1000, 1),
      sdp::make_instance(900, sdp::Op::max, 1, sdp::strided_offsets(4, 16), std::uint64_t{1} << 40,
                         2),
      sdp::make_instance(800, sdp::Op::min, 1, sdp::random_offsets(33, 80, 3), 1u << 30, 3)};
  for (const auto& x : xs) {
    for (const char* sync : {"block", "grid", "launch"}) {
      PipelineConfig c;
      c.sync = sync;
      c.p = std::string(sync) == "block"
                ? std::max<std::int64_t>(1, std::min(max_fold(x.offsets), kBlockLimit / x.k()))
                : 0;
      c.block = 64;
      Context ctx = make_ctx();
      expect_agrees(x, sdp_pipeline(x, c, ctx), std::string("sanitize pipeline ") + sync);
    }
    Context c1 = make_ctx(), c2 = make_ctx(), c3 = make_ctx();
    expect_agrees(x, sdp_pipeline2x2(x, c1), "sanitize 2x2");
    expect_agrees(x, sdp_prefix(x, c2), "sanitize prefix");
    expect_agrees(x, sdp_inner_parallel(x, c3), "sanitize inner_parallel");
  }
}

}  // namespace
}  // namespace dpgpu::pipeline
