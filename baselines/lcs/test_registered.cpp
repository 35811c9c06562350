// The solvers as the harness finds them: names, schemas, outcomes, memory, deadlines.
// (What every solver must declare is checked once for all: tests/test_registry_whole.cpp.)
#include <gtest/gtest.h>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "registered_solve.hpp"
#include "lcs/generators.hpp"
#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"

namespace {

using Clock = dpgpu::Context::Clock;

const char* const kAll[] = {"cpu.full_table", "cpu.linear", "cpu.hirschberg", "cpu.omp_wavefront",
                            "cpu.bitparallel"};
const char* const kWithCertificate[] = {"cpu.full_table", "cpu.hirschberg"};

const dpgpu::SolverEntry& solver(const std::string& name) {
  return baseline_test::registered("lcs", name);
}

bool makes_certificate(const std::string& name) {
  for (auto c : kWithCertificate)
    if (name == c) return true;
  return false;
}

dpgpu::AnyInstance planted(std::int64_t n, std::int64_t m, double fraction, std::uint64_t seed) {
  auto p = lcs::planted_pair(n, m, 4, fraction, seed);
  return dpgpu::erase_instance<lcs::Problem>({"planted", std::move(p.instance), p.lcs_length});
}

TEST(LcsSolvers, WavefrontSchemaHasThreadsAndTile) {
  auto& s = solver("cpu.omp_wavefront");
  auto p = s.schema.resolve({});
  EXPECT_EQ(p.integer("threads"), 0);
  EXPECT_EQ(p.integer("tile"), 256);
  EXPECT_THROW(s.schema.resolve({{"tile", std::int64_t{0}}}), dpgpu::InputError);
  EXPECT_THROW(s.schema.resolve({{"threads", std::int64_t{-1}}}), dpgpu::InputError);
  EXPECT_THROW(s.schema.resolve({{"tile", 1.5}}), dpgpu::InputError);
  EXPECT_THROW(solver("cpu.bitparallel").schema.resolve({{"tile", std::int64_t{8}}}),
               dpgpu::InputError);
}

TEST(LcsSolvers, OutcomesMatchThePlantedLengthAndCertificatesRecheck) {
  auto* problem = dpgpu::Registry::get().problem("lcs");
  ASSERT_NE(problem, nullptr);
  for (double fraction : {0.0, 0.5, 1.0}) {
    auto x = planted(900, 1300, fraction, 21);
    for (auto name : kAll) {
      auto& s = solver(name);
      dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
      auto out = baseline_test::solve_with_defaults(s, x, ctx);
      EXPECT_EQ(out.objective, *x.known_optimum) << name << " fraction " << fraction;
      EXPECT_EQ(out.solution != nullptr, makes_certificate(name)) << name;
      auto verdict = problem->check(x, out);
      if (makes_certificate(name)) {
        ASSERT_TRUE(verdict.has_value());
        EXPECT_TRUE(verdict->ok) << name << ": " << verdict->message;
        EXPECT_EQ(verdict->objective, out.objective) << name;
      }
      EXPECT_EQ(ctx.phase_seconds().count("compute"), 1u) << name;
    }
  }
}

TEST(LcsSolvers, WavefrontReportsItsThreads) {
  auto& s = solver("cpu.omp_wavefront");
  auto x = planted(300, 300, 0.5, 22);
  dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
  auto out =
      s.solve(x, s.schema.resolve({{"threads", std::int64_t{2}}, {"tile", std::int64_t{33}}}), ctx);
  EXPECT_EQ(out.objective, 150);
  EXPECT_EQ(ctx.counters().at("threads"), 2.0);
}

TEST(LcsSolvers, FullTableMemoryGrowsWithTheTable) {
  auto& s = solver("cpu.full_table");
  auto params = s.schema.resolve({});
  auto small = dpgpu::erase_instance<lcs::Problem>(
      {"s", {std::string(200, 'A'), std::string(100, 'C')}, {}});
  EXPECT_EQ(s.memory(small, params).host, 201u * 101u * 1u + 100u);  // 8-bit cells
  auto mid = dpgpu::erase_instance<lcs::Problem>(
      {"m", {std::string(1000, 'A'), std::string(1000, 'C')}, {}});
  EXPECT_EQ(s.memory(mid, params).host, 1001u * 1001u * 2u + 1000u);  // 16-bit cells
  EXPECT_EQ(lcs::cpu::full_table_bytes(100000, 100000), 100001ull * 100001ull * 4ull + 100000ull);
  EXPECT_EQ(s.memory(mid, params).device, 0u);
  // Linear-space solvers need far less than the table.
  EXPECT_LT(solver("cpu.hirschberg").memory(mid, params).host, 20000u);
  auto& bp = solver("cpu.bitparallel");
  EXPECT_LT(bp.memory(mid, bp.schema.resolve({})).host, 20000u);
}

TEST(LcsSolvers, PassedDeadlineStopsEveryone) {
  auto x = dpgpu::erase_instance<lcs::Problem>({"r", lcs::random_pair(4096, 4096, 4, 23), {}});
  for (auto name : kAll) {
    auto& s = solver(name);
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() - std::chrono::seconds(1));
    EXPECT_THROW(s.solve(x, s.schema.resolve({}), ctx), dpgpu::Timeout) << name;
  }
}

}  // namespace
