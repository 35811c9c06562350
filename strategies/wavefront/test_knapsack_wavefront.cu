// test_knapsack_wavefront.cu — gpu.wavefront (knapsack) against a CPU DP on the GPU: random
// instances of every generator, edge cases, the int64 path, every read-only path, offload on
// and off (including a ring so small that it wraps around on every diagonal), value-only
// mode, the memory refusal, and a larger case. Every certificate is rechecked with
// knapsack::Problem::check.
//
// Random instances use a fresh seed per run, printed with every failure; rerun one with
//   DPGPU_TEST_SEED=<seed> ./test_knapsack_wavefront
// Skipped (not passed) without a device. Parameter checks: test_knapsack_wavefront_params.cpp.
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "device_buffer.cuh"
#include "require_device.hpp"
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_config.hpp"
#include "knapsack_test_support.hpp"
#include "knapsack_wavefront.hpp"

namespace {

using dpgpu::wavefront::KnapsackWavefrontConfig;
using dpgpu::wavefront::KnapsackWavefrontResult;
using knapsack::gpu_test::base_seed;
using knapsack::gpu_test::expect_optimal;
using knapsack::gpu_test::Named;

dpgpu::Context::Clock::time_point an_hour() {
  return std::chrono::steady_clock::now() + std::chrono::hours(1);
}

std::string describe(const KnapsackWavefrontConfig& c) {
  return "block=" + std::to_string(c.block) + " offload=" + (c.offload ? "true" : "false") +
         " readonly=" + c.readonly + " reconstruct=" + (c.reconstruct ? "true" : "false") +
         " offload_diagonals=" + std::to_string(c.offload_diagonals) +
         " offload_slots=" + std::to_string(c.offload_slots);
}

KnapsackWavefrontConfig config(int block, bool offload, std::string readonly,
                               bool reconstruct = true, std::int64_t diagonals = 0,
                               std::int64_t slots = 4) {
  KnapsackWavefrontConfig c;
  c.block = block;
  c.offload = offload;
  c.readonly = std::move(readonly);
  c.reconstruct = reconstruct;
  c.offload_diagonals = diagonals;
  c.offload_slots = slots;
  return c;
}

std::map<std::string, double> expect_solves(const Named& inst, const KnapsackWavefrontConfig& cfg) {
  return knapsack::gpu_test::expect_solves(
      inst, cfg, describe(cfg),
      [](const knapsack::Instance& x, const KnapsackWavefrontConfig& c, dpgpu::Context& ctx) {
        return dpgpu::wavefront::knapsack_wavefront(x, c, ctx);
      });
}

class Configs : public ::testing::TestWithParam<KnapsackWavefrontConfig> {};

TEST_P(Configs, RandomInstancesOfEveryGenerator) {
  REQUIRE_DEVICE();
  // One launch per diagonal (n + C of them): capacities kept to a few thousand.
  for (const auto& inst :
       knapsack::gpu_test::random_instances(base_seed() ^ 0x3a7e, 2, 100, 100, 5000))
    expect_solves(inst, GetParam());
}

TEST_P(Configs, EdgeCases) {
  REQUIRE_DEVICE();
  for (const auto& inst : knapsack::gpu_test::edge_instances()) expect_solves(inst, GetParam());
}

TEST_P(Configs, SixtyFourBitValues) {
  REQUIRE_DEVICE();
  for (const auto& inst : knapsack::gpu_test::int64_instances(base_seed() ^ 0x64)) {
    const auto counters = expect_solves(inst, GetParam());
    EXPECT_EQ(counters.count("cell_bits") ? counters.at("cell_bits") : 0, 64)
        << inst.name << ": expected 64-bit cells";
  }
}

std::vector<KnapsackWavefrontConfig> all_configs() {
  std::vector<KnapsackWavefrontConfig> out;
  for (const char* ro : {"ldg", "plain", "texture"})
    for (bool offload : {true, false}) out.push_back(config(256, offload, ro));
  out.push_back(config(32, true, "ldg"));
  out.push_back(config(1024, false, "ldg"));
  out.push_back(
      config(64, true, "texture", true, 1, 2));  // wrap-around: 1 diagonal per chunk, 2 slots
  out.push_back(config(128, true, "ldg", true, 5, 1));  // one staging slot, 5-diagonal chunks
  out.push_back(config(256, true, "ldg", false));       // value only
  out.push_back(config(96, false, "plain", false));
  return out;
}

INSTANTIATE_TEST_SUITE_P(KnapsackWavefront, Configs, ::testing::ValuesIn(all_configs()),
                         [](const ::testing::TestParamInfo<KnapsackWavefrontConfig>& i) {
                           const auto& c = i.param;
                           return std::to_string(i.index) + "_b" + std::to_string(c.block) + "_" +
                                  c.readonly + (c.offload ? "_offload" : "_device") +
                                  (c.reconstruct ? "" : "_valueonly") +
                                  (c.offload_diagonals
                                       ? "_diags" + std::to_string(c.offload_diagonals)
                                       : "") +
                                  "_slots" + std::to_string(c.offload_slots);
                         });

TEST(KnapsackWavefrontGpu, OffloadWrapsAroundATinyRing) {
  REQUIRE_DEVICE();
  const Named inst{"paper2014 n=70 C=900", knapsack::paper2014_instance(70, 900, -1, base_seed())};
  const auto cfg = config(64, true, "ldg", true, 1, 2);
  const auto counters = expect_solves(inst, cfg);
  const auto g = dpgpu::wavefront::knapsack_geometry(inst.x, cfg);
  EXPECT_EQ(counters.at("offload_chunks"), double(g.diagonals))
      << "one chunk per diagonal expected";
  EXPECT_EQ(counters.at("bytes_offloaded"), double(g.diagonals) * double(g.bits_diagonal_bytes()));
  EXPECT_EQ(counters.at("diagonals"), double(g.diagonals));
  EXPECT_EQ(counters.at("kernel_launches"), double(g.diagonals));
  EXPECT_EQ(counters.at("window"), double(g.window));
}

TEST(KnapsackWavefrontGpu, PeakDeviceBytesEqualTheEstimate) {
  REQUIRE_DEVICE();
  const Named inst{"paper2014 n=300 C=3000",
                   knapsack::paper2014_instance(300, 3000, -1, base_seed())};
  for (const auto& cfg :
       {config(256, true, "ldg"), config(256, false, "ldg"), config(64, true, "texture", false),
        config(128, true, "plain", true, 7, 3)}) {
    const auto counters = expect_solves(inst, cfg);
    const auto g = dpgpu::wavefront::knapsack_geometry(inst.x, cfg);
    EXPECT_EQ(counters.at("peak_device_bytes"), double(dpgpu::wavefront::device_bytes(g, cfg)))
        << describe(cfg);
  }
}

TEST(KnapsackWavefrontGpu, PhasesAreRecorded) {
  REQUIRE_DEVICE();
  const auto x = knapsack::paper2014_instance(50, 1000, -1, base_seed());
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  ctx.begin();
  dpgpu::wavefront::knapsack_wavefront(x, config(256, true, "ldg"), ctx);
  ctx.end();
  const auto phases = ctx.phase_seconds();
  for (const char* p : {"alloc", "h2d", "compute", "d2h"})
    EXPECT_EQ(phases.count(p), 1u) << "phase " << p << " missing";
}

TEST(KnapsackWavefrontGpu, RefusesARingThatDoesNotFit) {
  REQUIRE_DEVICE();
  // One item of weight 2·10^9 - 10 in a knapsack of 2·10^9 - 10: a ring of 2·10^9 diagonals of
  // 288 cells (over 2 TB) — refused before allocating, saying what it needs and what there is.
  auto x = knapsack::gpu_test::make(2000000000 - 10, {{2000000000 - 10, 1}});
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  try {
    dpgpu::wavefront::knapsack_wavefront(x, config(256, true, "ldg"), ctx);
    ADD_FAILURE() << "a ring of ~2 TB was not refused";
  } catch (const dpgpu::OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("available"), std::string::npos) << e.what();
  }
}

TEST(KnapsackWavefrontGpu, LargerInstance) {
  REQUIRE_DEVICE();
  // The paper's n = 1500 with C = 3000: 4500 diagonals, 4.5·10^6 cells.
  expect_solves(
      {"paper2014 n=1500 C=3000", knapsack::paper2014_instance(1500, 3000, -1, base_seed())},
      config(256, true, "ldg"));
  expect_solves({"paper2014 n=1500 C=20000 value_max=1000",
                 knapsack::paper2014_instance(1500, 20000, 1000, base_seed())},
                config(256, false, "texture"));
}

TEST(KnapsackWavefrontGpu, RefusesBadConfigurationByName) {
  REQUIRE_DEVICE();
  const auto x = knapsack::gpu_test::make(10, {{3, 4}});
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  EXPECT_THROW(dpgpu::wavefront::knapsack_wavefront(x, config(100, true, "ldg"), ctx),
               dpgpu::InputError);
  EXPECT_THROW(dpgpu::wavefront::knapsack_wavefront(x, config(256, true, "surface"), ctx),
               dpgpu::InputError);
}

TEST(KnapsackWavefrontGpu, SharedFilesReachTheirKnownOptima) {
  REQUIRE_DEVICE();
  const auto dir = dpgpu::shared_data_dir("knapsack");
  if (dir.empty()) GTEST_SKIP() << "no shared knapsack data ($DPGPU_SHARED/data/knapsack)";
  int ran = 0;
  for (int cls : {1, 2, 3})
    for (int n : {100, 200}) {  // C is ~n·R/4: a few 10^4 diagonals each
      const auto file = dir / "pisinger_large_scale" /
                        ("knapPI_" + std::to_string(cls) + "_" + std::to_string(n) + "_1000_1");
      for (const auto& l : knapsack::Problem::load({{file}, ""})) {
        ASSERT_TRUE(l.known_optimum.has_value()) << l.name;
        dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
        const auto r =
            dpgpu::wavefront::knapsack_wavefront(l.instance, config(256, true, "ldg"), ctx);
        EXPECT_EQ(r.value, *l.known_optimum) << l.name;
        ASSERT_TRUE(r.items.has_value());
        const auto v = knapsack::Problem::check(l.instance, {*r.items});
        EXPECT_TRUE(v.ok) << l.name << ": " << v.message;
        EXPECT_EQ(v.objective, *l.known_optimum) << l.name;
        ++ran;
      }
    }
  EXPECT_EQ(ran, 6);
}

}  // namespace
