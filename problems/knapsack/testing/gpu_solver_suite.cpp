// gpu_solver_suite.cpp — the tests of gpu_solver_suite.hpp, compiled into each GPU knapsack
// strategy's test binary (which instantiates them with its own solvers).
#include "knapsack/testing/gpu_solver_suite.hpp"

#include <chrono>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "dpgpu/gpu_presence.hpp"
#include "dpgpu/shared_data.hpp"
#include "knapsack/generators.hpp"

namespace knapsack::gpu_test {
namespace {

dpgpu::Context::Clock::time_point an_hour() {
  return std::chrono::steady_clock::now() + std::chrono::hours(1);
}

// GTEST_SKIP in SetUp skips the test body: a GPU test is skipped, never passed, without a GPU.
void skip_without_gpu() {
  if (const std::string why = dpgpu::no_usable_gpu_reason(); !why.empty())
    GTEST_SKIP() << "no usable GPU: " << why;
}

// Each counter the solver promises for `x`, as it promised.
void expect_counters(const Instance& x, const GpuSolver& solver, const Counters& counters,
                     const std::string& what) {
  if (!solver.expected_counters) return;
  for (const auto& [name, expected] : solver.expected_counters(x)) {
    ASSERT_EQ(counters.count(name), 1u) << what << ": counter " << name << " not reported";
    EXPECT_EQ(counters.at(name), expected) << what << ": counter " << name;
  }
}

}  // namespace

Counters expect_solves(const Named& inst, const GpuSolver& solver) {
  const std::string what = inst.name + " [" + solver.config + "]";
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  Answer r;
  ctx.begin();
  try {
    r = solver.solve(inst.x, ctx);
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << " threw: " << e.what();
    return {};
  }
  ctx.end();
  expect_optimal(inst.x, r.value, r.items, solver.reconstruct, what);
  const Counters counters = ctx.counters();
  expect_counters(inst.x, solver, counters, what);
  return counters;
}

std::vector<SweepPoint> config_sweep(const SweepBlocks& b) {
  std::vector<SweepPoint> out;
  for (const char* ro : {"ldg", "plain", "texture"})
    for (bool offload : {true, false}) out.push_back({256, offload, ro});
  out.push_back({32, true, "ldg"});
  out.push_back({1024, false, "ldg"});
  out.push_back({b.wrap, true, "texture", true, 1, 2});
  out.push_back({b.one_slot, true, "ldg", true, b.one_slot_chunk, 1});
  out.push_back({256, true, "ldg", false});
  out.push_back({b.value_only_on_device, false, "plain", false});
  return out;
}

void KnapsackGpuConfigs::SetUp() { skip_without_gpu(); }
void KnapsackGpuStrategy::SetUp() { skip_without_gpu(); }

std::string config_test_name(const ::testing::TestParamInfo<GpuSolver>& info) {
  return std::to_string(info.index) + "_" + info.param.name;
}

std::string strategy_test_name(const ::testing::TestParamInfo<GpuStrategy>& info) {
  return info.param.name;
}

// ----------------------------------------------------------------- every configuration

TEST_P(KnapsackGpuConfigs, RandomInstancesOfEveryGenerator) {
  const RandomSizes& s = GetParam().random;
  for (const auto& inst : random_instances(base_seed() ^ s.salt, s.per_generator, s.max_n,
                                           s.max_range, s.max_capacity))
    expect_solves(inst, GetParam());
}

TEST_P(KnapsackGpuConfigs, EdgeCases) {
  for (const auto& inst : edge_instances()) expect_solves(inst, GetParam());
}

TEST_P(KnapsackGpuConfigs, SixtyFourBitValues) {
  for (const auto& inst : int64_instances(base_seed() ^ 0x64)) {
    const auto counters = expect_solves(inst, GetParam());
    EXPECT_EQ(counters.count("cell_bits") ? counters.at("cell_bits") : 0, 64)
        << inst.name << ": expected 64-bit cells";
  }
}

// ----------------------------------------------------------------- offload, counters, memory

TEST_P(KnapsackGpuStrategy, OffloadWrapsAroundATinyRing) {
  const SolveCase& c = GetParam().tiny_ring;
  ASSERT_TRUE(c.solver.expected_counters) << "the tiny ring names no counters to check";
  expect_solves(c.instance, c.solver);
}

TEST_P(KnapsackGpuStrategy, PeakDeviceBytesEqualTheEstimate) {
  const GpuStrategy& s = GetParam();
  ASSERT_FALSE(s.memory.empty());
  for (const auto& solver : s.memory) {
    ASSERT_TRUE(solver.expected_counters) << solver.config << ": no memory estimate to check";
    expect_solves(s.memory_instance, solver);
  }
}

TEST_P(KnapsackGpuStrategy, PhasesAreRecorded) {
  const auto x = paper2014_instance(50, 1000, -1, base_seed());
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  ctx.begin();
  GetParam().defaults.solve(x, ctx);
  ctx.end();
  const auto phases = ctx.phase_seconds();
  for (const char* p : {"alloc", "h2d", "compute", "d2h"})
    EXPECT_EQ(phases.count(p), 1u) << "phase " << p << " missing";
}

TEST_P(KnapsackGpuStrategy, LargerInstance) {
  ASSERT_FALSE(GetParam().larger.empty());
  for (const auto& c : GetParam().larger) expect_solves(c.instance, c.solver);
}

TEST_P(KnapsackGpuStrategy, RefusesBadConfigurationByName) {
  ASSERT_FALSE(GetParam().refused.empty());
  const auto x = make(10, {{3, 4}});
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  for (const auto& solver : GetParam().refused)
    EXPECT_THROW(solver.solve(x, ctx), dpgpu::InputError) << solver.config;
}

// ----------------------------------------------------------------- shared data (optional)

TEST_P(KnapsackGpuStrategy, SharedFilesReachTheirKnownOptima) {
  const auto dir = dpgpu::shared_data_dir("knapsack");
  if (dir.empty()) GTEST_SKIP() << "no shared knapsack data ($DPGPU_SHARED/data/knapsack)";
  const auto& sizes = GetParam().shared_file_sizes;
  int ran = 0;
  for (int cls : {1, 2, 3})
    for (int n : sizes) {
      const auto file = dir / "pisinger_large_scale" /
                        ("knapPI_" + std::to_string(cls) + "_" + std::to_string(n) + "_1000_1");
      for (const auto& l : Problem::load({{file}, ""})) {
        ASSERT_TRUE(l.known_optimum.has_value()) << l.name;
        dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
        const auto r = GetParam().defaults.solve(l.instance, ctx);
        EXPECT_EQ(r.value, *l.known_optimum) << l.name;
        ASSERT_TRUE(r.items.has_value());
        const auto v = Problem::check(l.instance, {*r.items});
        EXPECT_TRUE(v.ok) << l.name << ": " << v.message;
        EXPECT_EQ(v.objective, *l.known_optimum) << l.name;
        ++ran;
      }
    }
  EXPECT_EQ(ran, 3 * int(sizes.size()));
}

}  // namespace knapsack::gpu_test
