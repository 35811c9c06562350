// The search solvers on the generated ATSP classes and through the registry: the optimum a
// generator records equals cpu.held_karp's; cpu.dfs and cpu.omp_dfs count the same nodes
// at it; initial_ub errors are named; deadlines stop both.
#include <gtest/gtest.h>

#include "dfs.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "registered_solve.hpp"
#include "tsp/generators.hpp"
#include "tsp/reference.hpp"
#include "tsp_cpu.hpp"

namespace {

using Clock = dpgpu::Context::Clock;

const char* const kClasses[] = {"amat", "tmat", "tsmat", "crane", "coin"};

dpgpu::AnyInstance generate(const std::string& generator, int n, std::uint64_t seed,
                            dpgpu::ValueMap extra = {}) {
  auto* g = dpgpu::Registry::get().problem("tsp")->generator(generator);
  if (!g) throw std::runtime_error("not registered: " + generator);
  extra["n"] = std::int64_t{n};
  return g->make(g->schema.resolve(extra), seed);
}

const dpgpu::SolverEntry& solver(const std::string& name) {
  return baseline_test::registered("tsp", name);
}

TEST(TspSearchClasses, GeneratedOptimaEqualHeldKarp) {
  int checked = 0;
  for (auto cls : kClasses)
    for (int n = 2; n <= 13; ++n) {
      const std::uint64_t seed = 100 + n;
      const auto a = generate(cls, n, seed);
      const auto& x = a.as<tsp::Instance>();
      ASSERT_TRUE(x.optimum.has_value()) << a.name;
      EXPECT_EQ(*x.optimum, tsp::cpu::held_karp(x).cost) << a.name;
      ++checked;
    }
  EXPECT_EQ(checked, 60);
}

TEST(TspSearchClasses, SerialAndParallelCountsAgreeAtTheOptimum) {
  int checked = 0;
  for (auto cls : kClasses)
    for (int n = 4; n <= 11; ++n)
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const auto a = generate(cls, n, seed);
        const auto& x = a.as<tsp::Instance>();
        SCOPED_TRACE(a.name);
        const auto serial = tsp::cpu::dfs(x, *x.optimum);
        EXPECT_EQ(serial.cost, *x.optimum);
        EXPECT_GT(serial.nodes, std::uint64_t(n));  // at least the path of an optimal tour
        for (int split : {1, 3}) {
          const auto parallel = tsp::cpu::omp_dfs(x, *x.optimum, 3, split);
          EXPECT_EQ(parallel.nodes, serial.nodes) << "split " << split;
          EXPECT_EQ(parallel.cost, *x.optimum);
        }
        ++checked;
      }
  EXPECT_EQ(checked, 120);
}

// Through the registry, as a run does: the default initial_ub is optimal, the node count
// lands in the `nodes` counter, and both solvers agree.
TEST(TspSearchClasses, RegisteredSolversReportNodes) {
  auto* problem = dpgpu::Registry::get().problem("tsp");
  const auto x = generate("crane", 10, 7);
  double nodes[2] = {0, 0};
  int k = 0;
  for (auto name : {"cpu.dfs", "cpu.omp_dfs"}) {
    auto& s = solver(name);
    EXPECT_EQ(s.backend, dpgpu::Backend::Cpu);
    ASSERT_TRUE(s.memory);
    EXPECT_GE(s.memory(x, s.schema.resolve({})).host, 10u * 10u * 8u);
    EXPECT_EQ(s.schema.resolve({}).text("initial_ub"), "optimal");
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
    auto out = baseline_test::solve_with_defaults(s, x, ctx);
    EXPECT_EQ(out.objective, *x.known_optimum) << name;
    auto verdict = problem->check(x, out);
    ASSERT_TRUE(verdict.has_value());
    EXPECT_TRUE(verdict->ok) << verdict->message;
    nodes[k++] = ctx.counters().at("nodes");
    EXPECT_GT(ctx.counters().at("nodes_per_s"), 0) << name;
    EXPECT_EQ(ctx.counters().at("bound"), double(*x.known_optimum)) << name;
    EXPECT_EQ(ctx.phase_seconds().count("compute"), 1u) << name;
  }
  EXPECT_GT(nodes[0], 0);
  EXPECT_EQ(nodes[0], nodes[1]);
}

TEST(TspSearchClasses, InitialUbErrorsAreNamed) {
  const auto known = generate("coin", 8, 1);
  const auto unknown = generate("coin", 8, 1, {{"optimum_max_n", std::int64_t{0}}});
  for (auto name : {"cpu.dfs", "cpu.omp_dfs"}) {
    auto& s = solver(name);
    auto run = [&](const dpgpu::AnyInstance& x, const std::string& ub) {
      dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
      return s.solve(x, s.schema.resolve({{"initial_ub", ub}}), ctx);
    };
    auto message = [&](const dpgpu::AnyInstance& x, const std::string& ub) -> std::string {
      try {
        run(x, ub);
      } catch (const dpgpu::InputError& e) {
        return e.what();
      }
      return "(no error)";
    };
    EXPECT_NE(message(known, "best").find("initial_ub 'best'"), std::string::npos) << name;
    EXPECT_NE(message(unknown, "optimal").find("no known optimum"), std::string::npos) << name;
    EXPECT_NE(message(known, "0").find("below every tour"), std::string::npos) << name;
    // A bound above the optimum, and none: still the optimum.
    EXPECT_EQ(run(unknown, "none").objective, *known.known_optimum) << name;
    EXPECT_EQ(run(known, std::to_string(*known.known_optimum + 100)).objective,
              *known.known_optimum)
        << name;
    // An int in the file is not text: the schema says what it wants.
    EXPECT_THROW(s.schema.resolve({{"initial_ub", std::int64_t{5}}}), dpgpu::InputError);
  }
}

TEST(TspSearchClasses, PassedDeadlineStopsBoth) {
  const auto x = generate("crane", 16, 1, {{"optimum_max_n", std::int64_t{0}}});
  for (auto name : {"cpu.dfs", "cpu.omp_dfs"}) {
    auto& s = solver(name);
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() - std::chrono::seconds(1));
    EXPECT_THROW(s.solve(x, s.schema.resolve({{"initial_ub", std::string("none")}}), ctx),
                 dpgpu::Timeout)
        << name;
  }
}

}  // namespace
