// test_kokkos_tsp.cpp — kokkos.wavefront (CUDA) and kokkos.wavefront_host (OpenMP) for the
// TSP against cpu.held_karp on random Euclidean and asymmetric instances (n = 1 .. 14, 64-bit
// costs) and the published optima of TSPLIB files; the tour rechecked by the problem's check.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/shared_data.hpp"
#include "kokkos_test_support.hpp"
#include "tsp/generators.hpp"
#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"

namespace {

using dpgpu::kokkos::test::base_seed;
using dpgpu::kokkos::test::solve;

void expect_optimal(bool device, const tsp::Instance& inst, std::int64_t optimum,
                    const std::string& what, std::int64_t ranks_per_item = 0,
                    std::int64_t team_size = 0) {
  const auto& s = dpgpu::kokkos::test::solver("tsp", device);
  const auto x = dpgpu::erase_instance<tsp::Problem>({what, inst, std::nullopt});
  dpgpu::ValueMap params;
  if (ranks_per_item) params["ranks_per_item"] = ranks_per_item;
  if (team_size) params["team_size"] = team_size;
  const auto out = solve(s, x, params);
  EXPECT_EQ(out.objective, optimum) << what << " seed " << base_seed();
  ASSERT_TRUE(out.solution) << what;
  const auto verdict =
      tsp::Problem::check(inst, *static_cast<const tsp::Solution*>(out.solution.get()));
  EXPECT_TRUE(verdict.ok) << what << ": " << verdict.message;
  EXPECT_EQ(verdict.objective, optimum) << what;
}

void agrees_with_held_karp(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  std::uint64_t seed = base_seed();
  for (int n = 1; n <= 14; ++n) {
    const auto e = tsp::euclidean(n, 1000, ++seed);
    expect_optimal(device, e, tsp::cpu::held_karp(e).cost, "euclidean n=" + std::to_string(n));
    const auto r = tsp::random_matrix(n, 1, 100, ++seed);
    const auto cost = tsp::cpu::held_karp(r).cost;
    // One subset per work item, a few (not dividing the layers), and more than any layer.
    for (std::int64_t ranks : {1, 3, 5000})
      expect_optimal(
          device, r, cost,
          "random_matrix n=" + std::to_string(n) + " ranks_per_item=" + std::to_string(ranks),
          ranks);
    // Teams of one warp: more teams, each staging the tables for fewer items.
    if (device)
      expect_optimal(device, r, cost, "random_matrix n=" + std::to_string(n) + " team_size=32", 1,
                     32);
  }
  const auto big = tsp::random_matrix(12, 1000000000, 100000000000, ++seed);  // 64-bit costs
  expect_optimal(device, big, tsp::cpu::held_karp(big).cost, "64-bit costs");
}

void reaches_tsplib_optima(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  auto dir = dpgpu::shared_data_dir("tsplib");
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  for (const char* file : {"burma14.tsp", "br17.atsp"}) {
    const auto loaded = tsp::Problem::load({{dir / file}, ""});
    const auto& l = loaded.at(0);
    ASSERT_TRUE(l.known_optimum) << file;
    expect_optimal(device, l.instance, *l.known_optimum, file);
  }
}

// A few small cases: what compute-sanitizer runs (sanitize.txt).
void small_cases(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  std::uint64_t seed = base_seed();
  for (int n : {2, 5, 11}) {
    const auto r = tsp::random_matrix(n, 1, 100, ++seed);
    for (std::int64_t ranks : {1, 7})
      expect_optimal(device, r, tsp::cpu::held_karp(r).cost, "random_matrix n=" + std::to_string(n),
                     ranks, device ? 64 : 0);
  }
}

TEST(KokkosTspHost, SmallCases) { small_cases(false); }
TEST(KokkosTspDevice, SmallCases) { small_cases(true); }
TEST(KokkosTspHost, AgreesWithHeldKarp) { agrees_with_held_karp(false); }
TEST(KokkosTspDevice, AgreesWithHeldKarp) { agrees_with_held_karp(true); }
TEST(KokkosTspHost, ReachesTsplibOptima) { reaches_tsplib_optima(false); }
TEST(KokkosTspDevice, ReachesTsplibOptima) { reaches_tsplib_optima(true); }

TEST(KokkosTspRegistry, TeamSizeIsADeviceParameter) {
  const auto& device = dpgpu::kokkos::test::solver("tsp", true);
  const auto& host = dpgpu::kokkos::test::solver("tsp", false);
  EXPECT_EQ(device.schema.resolve({}).integer("team_size"), 256);
  EXPECT_EQ(device.schema.resolve({}).integer("ranks_per_item"), 1);
  EXPECT_EQ(host.schema.resolve({}).integer("ranks_per_item"), 2048);
  EXPECT_THROW(device.schema.resolve({{"team_size", std::int64_t{100}}}), dpgpu::InputError);
  EXPECT_THROW(host.schema.resolve({{"team_size", std::int64_t{32}}}),
               dpgpu::InputError);  // not declared there
  // n <= 33 is a rule with the instance's sizes, so the planner refuses before running.
  dpgpu::AnyInstance sized;
  sized.dims = {{"n", std::int64_t{34}}};
  EXPECT_TRUE(device.check_instance(device.schema.resolve({}), sized).has_value());
  sized.dims = {{"n", std::int64_t{33}}};
  EXPECT_FALSE(device.check_instance(device.schema.resolve({}), sized).has_value());
}

TEST(KokkosTspHost, RefusesMoreThan33Cities) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(false);
  const auto& s = dpgpu::kokkos::test::solver("tsp", false);
  const auto x =
      dpgpu::erase_instance<tsp::Problem>({"n34", tsp::euclidean(34, 100, 1), std::nullopt});
  EXPECT_THROW(solve(s, x, {}), dpgpu::InputError);
}

}  // namespace
