// The solvers as the harness finds them: names, schemas, outcomes, memory, deadlines.
// (What every solver must declare is checked once for all: tests/test_registry_whole.cpp.)
#include <gtest/gtest.h>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "registered_solve.hpp"
#include "tsp/generators.hpp"
#include "tsp/reference.hpp"
#include "tsp/tsp.hpp"

namespace {

using Clock = dpgpu::Context::Clock;

const char* const kAll[] = {"cpu.held_karp", "cpu.omp_held_karp"};

const dpgpu::SolverEntry& solver(const std::string& name) {
  return baseline_test::registered("tsp", name);
}

dpgpu::AnyInstance erased(tsp::Instance x) {
  auto name = x.name;
  return dpgpu::erase_instance<tsp::Problem>({name, std::move(x), std::nullopt});
}

TEST(TspSolvers, OmpSchemaHasThreads) {
  auto& s = solver("cpu.omp_held_karp");
  EXPECT_EQ(s.schema.resolve({}).integer("threads"), 0);
  EXPECT_EQ(s.schema.resolve({}).integer("block"), 2048);
  EXPECT_THROW(s.schema.resolve({{"block", std::int64_t{0}}}), dpgpu::InputError);
  EXPECT_THROW(s.schema.resolve({{"threads", std::int64_t{-1}}}), dpgpu::InputError);
  EXPECT_THROW(solver("cpu.held_karp").schema.resolve({{"threads", std::int64_t{2}}}),
               dpgpu::InputError);
}

TEST(TspSolvers, OutcomesAreOptimalAndCertificatesRecheck) {
  auto* problem = dpgpu::Registry::get().problem("tsp");
  ASSERT_NE(problem, nullptr);
  for (auto instance : {tsp::euclidean(9, 1000, 5), tsp::random_matrix(9, 1, 1000, 5)}) {
    const auto optimum = tsp::brute_force(instance).cost;
    auto x = erased(instance);
    for (auto name : kAll) {
      auto& s = solver(name);
      dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
      auto out = baseline_test::solve_with_defaults(s, x, ctx);
      EXPECT_EQ(out.objective, optimum) << name;
      ASSERT_NE(out.solution, nullptr) << name;
      auto verdict = problem->check(x, out);
      ASSERT_TRUE(verdict.has_value());
      EXPECT_TRUE(verdict->ok) << name << ": " << verdict->message;
      EXPECT_EQ(verdict->objective, out.objective) << name;
      EXPECT_EQ(ctx.phase_seconds().count("compute"), 1u) << name;
      EXPECT_GT(ctx.counters().at("table_bytes"), 0) << name;
      EXPECT_EQ(ctx.counters().at("cell_bytes"), 4) << name;
    }
  }
}

TEST(TspSolvers, OmpReportsItsThreads) {
  auto& s = solver("cpu.omp_held_karp");
  dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
  auto params = s.schema.resolve({{"threads", std::int64_t{2}}, {"block", std::int64_t{16}}});
  auto out = s.solve(erased(tsp::euclidean(10, 1000, 3)), params, ctx);
  EXPECT_EQ(out.objective, tsp::brute_force(tsp::euclidean(10, 1000, 3)).cost);
  EXPECT_EQ(ctx.counters().at("threads"), 2.0);
}

TEST(TspSolvers, MemoryRefusesWhatCannotFit) {
  // The runner compares these with the memory available and skips what cannot fit.
  auto& whole = solver("cpu.held_karp");
  auto n30 = whole.memory(erased(tsp::euclidean(30, 1000, 1)), whole.schema.resolve({}));
  EXPECT_GT(n30.host, 64ull << 30);  // the whole table: 72.5 GiB
  EXPECT_EQ(n30.device, 0u);
  auto& layered = solver("cpu.omp_held_karp");
  auto n34 = layered.memory(erased(tsp::euclidean(34, 1000, 1)), layered.schema.resolve({}));
  EXPECT_GT(n34.host, 128ull << 30);  // predecessors alone: 33·2^32 bytes
  EXPECT_EQ(n34.device, 0u);
}

TEST(TspSolvers, PassedDeadlineStopsEveryone) {
  auto x = erased(tsp::euclidean(20, 1000, 4));
  for (auto name : kAll) {
    auto& s = solver(name);
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() - std::chrono::seconds(1));
    EXPECT_THROW(s.solve(x, s.schema.resolve({}), ctx), dpgpu::Timeout) << name;
  }
}

}  // namespace
