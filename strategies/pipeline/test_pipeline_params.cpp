// Host-only: parameters, the fold bound and its message, the knapsack bound, registration.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "sdp/pipeline_bounds.hpp"
#include "pipeline_config.hpp"
#include "sdp/generators.hpp"

namespace dpgpu::pipeline {
namespace {

std::string error_of(std::int64_t p, std::int64_t max_p, std::int64_t k, const std::string& sync) {
  try {
    resolve_fold(p, max_p, k, sync, sdp_bound_reason(), "gpu.pipeline");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PipelineBounds, MaxFoldFollowsTheCorrectnessCondition) {
  EXPECT_EQ(max_fold({10, 8, 5}), 3);  // the paper's Figure 7: min(10/3, 8/2, 5/1)
  EXPECT_EQ(max_fold(sdp::consecutive_offsets(5)), 1);
  EXPECT_EQ(max_fold(sdp::strided_offsets(16, 4096)), 4096);
  EXPECT_EQ(max_fold({7}), 7);
}

TEST(PipelineBounds, StepsAndThePapersFormula) {
  // The paper's Figure 3: k = 3, a0 = 6; p = 1 takes n + k - a0 - 1 steps.
  EXPECT_EQ(pipeline_steps(20, 6, 3, 1), 20 + 3 - 6 - 1);
  EXPECT_EQ(paper_step_formula(20, 6, 3, 1), 20 + 3 - 6 - 1);
  // p divides n - a0: equal; otherwise the paper's loop is one short.
  EXPECT_EQ(pipeline_steps(22, 10, 3, 3), paper_step_formula(22, 10, 3, 3));
  EXPECT_EQ(pipeline_steps(23, 10, 3, 3), paper_step_formula(23, 10, 3, 3) + 1);
  EXPECT_EQ(pipeline_steps(5, 6, 3, 1), 0);
}

TEST(PipelineParams, FoldAboveTheBoundIsRefusedWithTheBound) {
  const auto offsets = sdp::strided_offsets(16, 4096);
  const std::int64_t max_p = max_fold(offsets);
  EXPECT_EQ(resolve_fold(0, max_p, 16, "grid", "", "x"), 4096);  // 0: the largest
  EXPECT_EQ(resolve_fold(4096, max_p, 16, "grid", "", "x"), 4096);
  const std::string e = error_of(4097, max_p, 16, "grid");
  EXPECT_NE(e.find("'p' = 4097 exceeds the largest valid fold 4096"), std::string::npos) << e;
  EXPECT_NE(e.find("a_t >= (k - t)"), std::string::npos) << e;
}

TEST(PipelineParams, BlockSyncHoldsAtMostOneBlock) {
  EXPECT_EQ(resolve_fold(64, 4096, 16, "block", "", "x"), 64);  // 1024 threads
  const std::string e = error_of(65, 4096, 16, "block");
  EXPECT_NE(e.find("p <= 64"), std::string::npos) << e;
}

TEST(PipelineParams, DefaultFoldRespectsOneBlockAndTheGpusCoResidentBlocks) {
  // p: 0 never picks a fold its own sync mode cannot run.
  EXPECT_EQ(resolve_fold(0, 4096, 16, "block", "", "x"), 64);
  EXPECT_EQ(resolve_fold(0, 1'000'000, 2, "grid", "", "x", grid_fold_cap(264, 512, 2)),
            264 * 512 * 8 / 2);
  EXPECT_EQ(resolve_fold(0, 100, 2, "grid", "", "x", grid_fold_cap(264, 512, 2)), 100)
      << "the bound is lower";
  EXPECT_EQ(resolve_fold(0, 1'000'000, 2, "launch", "", "x", 7), 1'000'000)
      << "launch has no residency cap";
}

TEST(PipelineParams, GridLayoutAndItsResidencyRule) {
  PipelineConfig c;                       // block 512, blocks 0: one per SM
  const std::int64_t pk = 2 * 1'000'000;  // knapsack, C = 2·10^6: p·k about 2·10^6
  const GridLayout g = grid_layout(pk, c, 132);
  EXPECT_EQ(g.blocks, (pk + 512 * 8 - 1) / (512 * 8))
      << "one per SM is too few: eight items per thread at most";
  EXPECT_EQ(g.per, 8);
  const auto why = residency_refusal(g, pk, c, 264);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("sync grid needs 489 blocks of 512 threads co-resident"), std::string::npos)
      << *why;
  EXPECT_NE(why->find("the GPU holds 264"), std::string::npos) << *why;
  const std::int64_t cap = grid_fold_cap(264, 512, 2);
  EXPECT_FALSE(residency_refusal(grid_layout(cap * 2, c, 132), cap * 2, c, 264)) << "the cap fits";
  EXPECT_TRUE(residency_refusal(grid_layout((cap + 1) * 2, c, 132), (cap + 1) * 2, c, 264))
      << "one more does not";
}

TEST(PipelineRegistered, RulesWithTheInstanceAreDeclared) {
  const SolverEntry* k = Registry::get().solver("knapsack", "gpu.pipeline");
  ASSERT_NE(k, nullptr);
  knapsack::Instance x;
  x.capacity = 100;
  x.weight = {30, 7};
  x.value = {1, 2};
  AnyInstance a = erase_instance<knapsack::Problem>({"x", x, std::nullopt});
  EXPECT_FALSE(k->check_instance(k->schema.resolve({{"p", std::int64_t{54}}}), a));
  const auto above = k->check_instance(k->schema.resolve({{"p", std::int64_t{55}}}), a);
  ASSERT_TRUE(above.has_value());
  EXPECT_NE(above->find("'p' = 55 exceeds the largest valid fold 54"), std::string::npos) << *above;
  const auto block = k->check_instance(
      k->schema.resolve({{"p", std::int64_t{54}}, {"sync", std::string("block")}}), a);
  EXPECT_FALSE(block) << "54·2 threads fit one block";
#if DPGPU_WITH_CUDA
  EXPECT_EQ(k->device_checks.size(), 1u) << "co-residency, asked where a GPU is present";
#else
  EXPECT_TRUE(k->device_checks.empty());
#endif
}

TEST(PipelineParams, BadParametersAreNamed) {
  PipelineConfig c;
  c.sync = "warp";
  EXPECT_THROW(validate(c, "gpu.pipeline"), InputError);
  c = {};
  c.block = 100;
  EXPECT_THROW(validate(c, "gpu.pipeline"), InputError);
  c = {};
  c.p = -1;
  EXPECT_THROW(validate(c, "gpu.pipeline"), InputError);
}

TEST(PipelineParams, KnapsackBound) {
  knapsack::Instance x;
  x.capacity = 100;
  x.weight = {30, 7, 500};  // 500 > C: not an active item
  x.value = {1, 2, 3};
  EXPECT_EQ(knapsack_max_fold(x), (101 + 7) / 2);
  EXPECT_EQ(active_items(x).size(), 2u);
  x.weight = {};
  x.value = {};
  EXPECT_EQ(knapsack_max_fold(x), 101);
}

TEST(PipelineParams, CellWidth) {
  auto x = sdp::make_instance(10, sdp::Op::add, std::uint64_t{1} << 31, {2, 1}, 5, 1);
  EXPECT_TRUE(sdp_fits_32_bits(x));
  x.modulus = (std::uint64_t{1} << 31) + 1;
  EXPECT_FALSE(sdp_fits_32_bits(x));
}

TEST(PipelineRegistered, SolversAreListedForBothProblems) {
  auto& r = Registry::get();
  for (const char* s : {"gpu.pipeline", "gpu.pipeline2x2", "gpu.prefix", "gpu.inner_parallel"})
    EXPECT_NE(r.solver("sdp", s), nullptr) << s;
  const SolverEntry* k = r.solver("knapsack", "gpu.pipeline");
  ASSERT_NE(k, nullptr);
  EXPECT_NE(k->schema.find("sync"), nullptr);
  EXPECT_NE(k->schema.find("p"), nullptr);
}

}  // namespace
}  // namespace dpgpu::pipeline
