// gpu.pipeline for the 0-1 knapsack against cpu.dp (value) and the problem's check
// (certificate), for several p and every sync mode. Skipped without a GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "device_buffer.cuh"
#include "require_device.hpp"
#include "dpgpu/error.hpp"
#include "knapsack/generators.hpp"
#include "knapsack_cpu.hpp"
#include "pipeline_solvers.hpp"

namespace dpgpu::pipeline {
namespace {

Context make_ctx() {
  return Context(Backend::Gpu, Context::Clock::now() + std::chrono::minutes(5));
}

void expect_optimal(const knapsack::Instance& x, const PipelineConfig& c, const std::string& what) {
  Context ctx = make_ctx();
  const KnapsackPipelineResult r = knapsack_pipeline(x, c, ctx);
  const knapsack::cpu::Packing ref = knapsack::cpu::dp(x);
  EXPECT_EQ(r.value, ref.value) << what;
  const dpgpu::Verdict v = knapsack::Problem::check(x, knapsack::Solution{r.items});
  EXPECT_TRUE(v.ok) << what << ": " << v.message;
  EXPECT_EQ(v.objective, ref.value) << what;
}

TEST(PipelineKnapsackGpu, AgreesWithCpuDp) {
  REQUIRE_DEVICE();
  using knapsack::PisingerClass;
  std::uint64_t seed = 1;
  for (auto cls : {PisingerClass::uncorrelated, PisingerClass::strongly_correlated,
                   PisingerClass::subset_sum}) {
    for (std::int64_t n : {1, 7, 60}) {
      const knapsack::Instance x = knapsack::pisinger_instance(cls, n, 300, -1, 0.5, seed++);
      const std::int64_t pmax = knapsack_max_fold(x);
      for (std::int64_t p : {std::int64_t{1}, std::max<std::int64_t>(1, pmax / 3), pmax}) {
        for (const char* sync : {"block", "grid", "launch"}) {
          if (std::string(sync) == "block" && 2 * p > kBlockLimit) continue;
          PipelineConfig c;
          c.p = p;
          c.sync = sync;
          expect_optimal(x, c,
                         std::string(knapsack::to_string(cls)) + " n=" + std::to_string(n) +
                             " p=" + std::to_string(p) + " " + sync);
        }
      }
    }
  }
}

TEST(PipelineKnapsackGpu, EdgeCases) {
  REQUIRE_DEVICE();
  knapsack::Instance empty;  // no items
  empty.capacity = 10;
  expect_optimal(empty, {}, "no items");
  knapsack::Instance heavy;  // nothing fits
  heavy.capacity = 5;
  heavy.weight = {6, 9};
  heavy.value = {3, 4};
  expect_optimal(heavy, {}, "nothing fits");
  knapsack::Instance zero;  // capacity 0, a weightless item
  zero.capacity = 0;
  zero.weight = {0, 1};
  zero.value = {5, 9};
  expect_optimal(zero, {}, "capacity 0");
  knapsack::Instance big;  // 64-bit cells
  big.capacity = 50;
  big.weight = {10, 20, 30, 45};
  big.value = {std::int64_t{1} << 40, std::int64_t{3} << 39, std::int64_t{1} << 41, 7};
  expect_optimal(big, {}, "64-bit values");
}

TEST(PipelineKnapsackGpu, InvalidFoldIsRefused) {
  REQUIRE_DEVICE();
  const knapsack::Instance x =
      knapsack::pisinger_instance(knapsack::PisingerClass::uncorrelated, 20, 100, -1, 0.5, 3);
  PipelineConfig c;
  c.p = knapsack_max_fold(x) + 1;
  Context ctx = make_ctx();
  try {
    knapsack_pipeline(x, c, ctx);
    FAIL() << "p above the bound accepted";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("largest valid fold " + std::to_string(knapsack_max_fold(x))),
        std::string::npos)
        << e.what();
  }
}

// Capacity 2·10^6: the correctness bound allows p about 10^6, so p·k about 2·10^6 element-
// stages, more than the GPU holds co-resident in one persistent grid; p: 0 takes the largest
// fold that fits, and an explicit p at the bound is refused by the GPU rule (before running).
TEST(PipelineKnapsackGpu, DefaultFoldWithSyncGridFitsTheGpu) {
  REQUIRE_DEVICE();
  const knapsack::Instance x = knapsack::paper2014_instance(100, 2'000'000, 1000, 1);
  PipelineConfig c;  // p 0, sync grid
  EXPECT_FALSE(knapsack_grid_rule(x, c).has_value());
  Context ctx = make_ctx();
  const KnapsackPipelineResult r = knapsack_pipeline(x, c, ctx);
  EXPECT_EQ(r.value, knapsack::cpu::dp(x).value);
  EXPECT_LT(ctx.counters().at("p"), double(knapsack_max_fold(x))) << "capped by co-residency";
  EXPECT_LE(ctx.counters().at("per_thread"), 8.0);
  c.p = knapsack_max_fold(x);
  const auto why = knapsack_grid_rule(x, c);
  ASSERT_TRUE(why.has_value()) << "p = " << c.p << " fits co-resident?";
  EXPECT_NE(why->find("co-resident"), std::string::npos) << *why;
  Context ctx2 = make_ctx();
  EXPECT_THROW(knapsack_pipeline(x, c, ctx2), InputError);
}

}  // namespace
}  // namespace dpgpu::pipeline
