// The solvers as the harness finds them: names, schemas, outcomes, counters, memory, deadlines.
// (What every solver must declare is checked once for all: tests/test_registry_whole.cpp.)
#include <gtest/gtest.h>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "registered_solve.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack/reference.hpp"
#include "knapsack_cpu.hpp"

namespace {

using Clock = dpgpu::Context::Clock;

const char* const kAll[] = {"cpu.dp", "cpu.omp_dp", "cpu.branch_bound"};

const dpgpu::SolverEntry& solver(const std::string& name) {
  return baseline_test::registered("knapsack", name);
}

dpgpu::AnyInstance erased(knapsack::Instance x,
                          std::optional<std::int64_t> optimum = std::nullopt) {
  return dpgpu::erase_instance<knapsack::Problem>({"test", std::move(x), optimum});
}

TEST(KnapsackSolvers, OnlyOmpDpHasThreads) {
  auto& omp = solver("cpu.omp_dp");
  EXPECT_EQ(omp.schema.resolve({}).integer("threads"), 0);
  EXPECT_THROW(omp.schema.resolve({{"threads", std::int64_t{-1}}}), dpgpu::InputError);
  EXPECT_THROW(omp.schema.resolve({{"threads", 1.5}}), dpgpu::InputError);
  EXPECT_THROW(solver("cpu.dp").schema.resolve({{"threads", std::int64_t{2}}}), dpgpu::InputError);
  EXPECT_THROW(solver("cpu.branch_bound").schema.resolve({{"threads", std::int64_t{2}}}),
               dpgpu::InputError);
}

TEST(KnapsackSolvers, OutcomesAreOptimalAndCertificatesRecheck) {
  auto* problem = dpgpu::Registry::get().problem("knapsack");
  ASSERT_NE(problem, nullptr);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    auto plain = knapsack::pisinger_instance(knapsack::PisingerClass::weakly_correlated, 16, 100,
                                             -1, 0.4, seed);
    const auto optimum = knapsack::brute_force_optimum(plain);
    auto x = erased(std::move(plain), optimum);
    for (auto name : kAll) {
      auto& s = solver(name);
      dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
      auto out = baseline_test::solve_with_defaults(s, x, ctx);
      EXPECT_EQ(out.objective, optimum) << name << " seed " << seed;
      auto verdict = problem->check(x, out);
      ASSERT_TRUE(verdict.has_value()) << name << ": no certificate";
      EXPECT_TRUE(verdict->ok) << name << ": " << verdict->message;
      EXPECT_EQ(verdict->objective, out.objective) << name;
      EXPECT_EQ(ctx.phase_seconds().count("compute"), 1u) << name;
    }
  }
}

TEST(KnapsackSolvers, CountersSayWhatRan) {
  auto x = erased(knapsack::paper2014_instance(40, 200, -1, 3));
  {
    auto& s = solver("cpu.omp_dp");
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
    s.solve(x, s.schema.resolve({{"threads", std::int64_t{2}}}), ctx);
    EXPECT_EQ(ctx.counters().at("threads"), 2.0);
    EXPECT_EQ(ctx.counters().at("cell_bits"), 32.0);
  }
  {
    auto& s = solver("cpu.branch_bound");
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
    s.solve(x, s.schema.resolve({}), ctx);
    EXPECT_GE(ctx.counters().at("nodes"), 1.0);
  }
}

TEST(KnapsackSolvers, MemoryCountsArraysAndDecisionBits) {
  const knapsack::Instance x{50, {60, 100, 120}, {10, 20, 30}};
  auto any = erased(x);
  const dpgpu::Params none;
  // 51 int32 cells; 3 rows of one 64-bit word; 3 int32 result indices.
  EXPECT_EQ(solver("cpu.dp").memory(any, solver("cpu.dp").schema.resolve({})).host,
            51u * 4 + 3u * 8 + 3u * 4);
  EXPECT_EQ(solver("cpu.omp_dp").memory(any, solver("cpu.omp_dp").schema.resolve({})).host,
            2 * 51u * 4 + 3u * 8 + 3u * 4);
  EXPECT_EQ(solver("cpu.dp").memory(any, none).device, 0u);
  // The paper's n = 1500 at C = 10^6: the bits (1500 · 15626 words) dominate.
  knapsack::Instance paper{1000000, std::vector<std::int64_t>(1500, 1),
                           std::vector<std::int64_t>(1500, 1)};
  EXPECT_EQ(knapsack::cpu::dp_bytes(paper), 1000001ull * 4 + 1500ull * 15626 * 8 + 1500ull * 4);
  // A capacity no machine holds saturates instead of wrapping around.
  knapsack::Instance huge{std::int64_t{1} << 62, {1}, {1}};
  EXPECT_GT(knapsack::cpu::dp_bytes(huge), std::uint64_t{1} << 62);
  EXPECT_LT(knapsack::cpu::branch_bound_bytes(huge), 1000u);
}

TEST(KnapsackSolvers, ImpossibleAllocationIsOutOfMemory) {
  auto x = erased({std::int64_t{1} << 62, {1, 2}, {1, 2}});
  for (auto name : {"cpu.dp", "cpu.omp_dp"}) {
    auto& s = solver(name);
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
    EXPECT_THROW(s.solve(x, s.schema.resolve({}), ctx), dpgpu::OutOfMemory) << name;
  }
}

TEST(KnapsackSolvers, PassedDeadlineStopsEveryone) {
  auto x = erased(knapsack::paper2014_instance(1500, 20000, -1, 4));
  for (auto name : kAll) {
    auto& s = solver(name);
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() - std::chrono::seconds(1));
    EXPECT_THROW(s.solve(x, s.schema.resolve({}), ctx), dpgpu::Timeout) << name;
  }
}

}  // namespace
