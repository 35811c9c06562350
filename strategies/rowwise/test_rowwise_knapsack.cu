// test_rowwise_knapsack.cu — gpu.rowwise against a CPU DP on the GPU: random instances of every
// generator, edge cases, the int64 path, every read-only path, offload on and off (including
// a ring so small that it wraps around on every chunk), value-only mode, and a larger case.
// Every certificate is rechecked with knapsack::Problem::check.
//
// Random instances use a fresh seed per run, printed with every failure; rerun one with
//   DPGPU_TEST_SEED=<seed> ./test_rowwise_knapsack
// Skipped (not passed) without a device. Parameter checks: test_rowwise_params.cpp.
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
#include "knapsack_test_support.hpp"
#include "rowwise_config.hpp"
#include "rowwise_knapsack.hpp"

namespace {

using dpgpu::rowwise::RowwiseConfig;
using dpgpu::rowwise::RowwiseResult;
using knapsack::gpu_test::base_seed;
using knapsack::gpu_test::expect_optimal;
using knapsack::gpu_test::Named;

dpgpu::Context::Clock::time_point an_hour() {
  return std::chrono::steady_clock::now() + std::chrono::hours(1);
}

std::string describe(const RowwiseConfig& c) {
  return "block=" + std::to_string(c.block) + " offload=" + (c.offload ? "true" : "false") +
         " readonly=" + c.readonly + " reconstruct=" + (c.reconstruct ? "true" : "false") +
         " offload_rows=" + std::to_string(c.offload_rows) +
         " offload_slots=" + std::to_string(c.offload_slots);
}

RowwiseConfig config(int block, bool offload, std::string readonly, bool reconstruct = true,
                     std::int64_t rows = 0, std::int64_t slots = 4) {
  RowwiseConfig c;
  c.block = block;
  c.offload = offload;
  c.readonly = std::move(readonly);
  c.reconstruct = reconstruct;
  c.offload_rows = rows;
  c.offload_slots = slots;
  return c;
}

// Solves in a fresh Context and holds the result to the CPU DP; returns the Context's counters.
std::map<std::string, double> expect_solves(const Named& inst, const RowwiseConfig& cfg) {
  return knapsack::gpu_test::expect_solves(
      inst, cfg, describe(cfg),
      [](const knapsack::Instance& x, const RowwiseConfig& c, dpgpu::Context& ctx) {
        return dpgpu::rowwise::rowwise_knapsack(x, c, ctx);
      });
}

// ----------------------------------------------------------------- every configuration

class Configs : public ::testing::TestWithParam<RowwiseConfig> {};

TEST_P(Configs, RandomInstancesOfEveryGenerator) {
  REQUIRE_DEVICE();
  for (const auto& inst : knapsack::gpu_test::random_instances(base_seed() ^ 0x5157, 2))
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

std::vector<RowwiseConfig> all_configs() {
  std::vector<RowwiseConfig> out;
  for (const char* ro : {"ldg", "plain", "texture"})
    for (bool offload : {true, false}) out.push_back(config(256, offload, ro));
  out.push_back(config(32, true, "ldg"));
  out.push_back(config(1024, false, "ldg"));
  out.push_back(config(96, true, "texture", true, 1, 2));  // wrap-around: 1 row per chunk, 2 slots
  out.push_back(config(256, true, "ldg", true, 3, 1));     // one staging slot, 3-row chunks
  out.push_back(config(256, true, "ldg", false));          // value only
  out.push_back(config(128, false, "plain", false));
  return out;
}

INSTANTIATE_TEST_SUITE_P(RowwiseKnapsack, Configs, ::testing::ValuesIn(all_configs()),
                         [](const ::testing::TestParamInfo<RowwiseConfig>& i) {
                           const auto& c = i.param;
                           return std::to_string(i.index) + "_b" + std::to_string(c.block) + "_" +
                                  c.readonly + (c.offload ? "_offload" : "_device") +
                                  (c.reconstruct ? "" : "_valueonly") +
                                  (c.offload_rows ? "_rows" + std::to_string(c.offload_rows) : "") +
                                  "_slots" + std::to_string(c.offload_slots);
                         });

// ----------------------------------------------------------------- offload, counters, memory

TEST(RowwiseKnapsackGpu, OffloadWrapsAroundATinyRing) {
  REQUIRE_DEVICE();
  const Named inst{"paper2014 n=97 C=5000",
                   knapsack::paper2014_instance(97, 5000, -1, base_seed())};
  const auto cfg = config(128, true, "ldg", true, 1, 2);
  const auto counters = expect_solves(inst, cfg);
  EXPECT_EQ(counters.at("offload_chunks"), 97) << "one chunk per row expected";
  EXPECT_EQ(counters.at("offload_chunk_rows"), 1);
  const auto g = dpgpu::rowwise::rowwise_geometry(inst.x, cfg);
  EXPECT_EQ(counters.at("bytes_offloaded"), double(g.items) * double(g.bits_row_bytes()));
  EXPECT_EQ(counters.at("rows"), double(g.items));
  EXPECT_EQ(counters.at("kernel_launches"), double(g.items));
}

TEST(RowwiseKnapsackGpu, PeakDeviceBytesEqualTheEstimate) {
  REQUIRE_DEVICE();
  const Named inst{"paper2014 n=300 C=20000",
                   knapsack::paper2014_instance(300, 20000, -1, base_seed())};
  for (const auto& cfg :
       {config(256, true, "ldg"), config(256, false, "ldg"), config(64, true, "texture", false),
        config(256, true, "plain", true, 7, 3)}) {
    const auto counters = expect_solves(inst, cfg);
    const auto g = dpgpu::rowwise::rowwise_geometry(inst.x, cfg);
    EXPECT_EQ(counters.at("peak_device_bytes"), double(dpgpu::rowwise::device_bytes(g, cfg)))
        << describe(cfg);
    EXPECT_EQ(counters.at("padded_cells"), double(g.padded_cells)) << describe(cfg);
  }
}

TEST(RowwiseKnapsackGpu, PhasesAreRecorded) {
  REQUIRE_DEVICE();
  const auto x = knapsack::paper2014_instance(50, 1000, -1, base_seed());
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  ctx.begin();
  dpgpu::rowwise::rowwise_knapsack(x, config(256, true, "ldg"), ctx);
  ctx.end();
  const auto phases = ctx.phase_seconds();
  for (const char* p : {"alloc", "h2d", "compute", "d2h"})
    EXPECT_EQ(phases.count(p), 1u) << "phase " << p << " missing";
}

TEST(RowwiseKnapsackGpu, LargerInstance) {
  REQUIRE_DEVICE();
  // 1500 items (the paper's n), C = 2·10^5: 3·10^8 cells; and the same with values that
  // make 64-bit cells necessary.
  expect_solves(
      {"paper2014 n=1500 C=200000", knapsack::paper2014_instance(1500, 200000, -1, base_seed())},
      config(256, true, "ldg"));
  expect_solves({"paper2014 n=1500 C=200000 value_max=1000",
                 knapsack::paper2014_instance(1500, 200000, 1000, base_seed())},
                config(256, false, "ldg"));
  expect_solves({"uncorrelated n=2000 R=1e9 (64-bit)",
                 knapsack::pisinger_instance(knapsack::PisingerClass::uncorrelated, 2000,
                                             1000000000, 50000, 0, base_seed())},
                config(256, true, "ldg"));
}

TEST(RowwiseKnapsackGpu, RefusesBadConfigurationByName) {
  REQUIRE_DEVICE();
  const auto x = knapsack::gpu_test::make(10, {{3, 4}});
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  EXPECT_THROW(dpgpu::rowwise::rowwise_knapsack(x, config(100, true, "ldg"), ctx),
               dpgpu::InputError);
  EXPECT_THROW(dpgpu::rowwise::rowwise_knapsack(x, config(256, true, "surface"), ctx),
               dpgpu::InputError);
}

// ----------------------------------------------------------------- shared data (optional)

TEST(RowwiseKnapsackGpu, SharedFilesReachTheirKnownOptima) {
  REQUIRE_DEVICE();
  const auto dir = dpgpu::shared_data_dir("knapsack");
  if (dir.empty()) GTEST_SKIP() << "no shared knapsack data ($DPGPU_SHARED/data/knapsack)";
  int ran = 0;
  for (int cls : {1, 2, 3})
    for (int n : {100, 1000, 2000}) {
      const auto file = dir / "pisinger_large_scale" /
                        ("knapPI_" + std::to_string(cls) + "_" + std::to_string(n) + "_1000_1");
      for (const auto& l : knapsack::Problem::load({{file}, ""})) {
        ASSERT_TRUE(l.known_optimum.has_value()) << l.name;
        dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
        const auto r = dpgpu::rowwise::rowwise_knapsack(l.instance, config(256, true, "ldg"), ctx);
        EXPECT_EQ(r.value, *l.known_optimum) << l.name;
        ASSERT_TRUE(r.items.has_value());
        const auto v = knapsack::Problem::check(l.instance, {*r.items});
        EXPECT_TRUE(v.ok) << l.name << ": " << v.message;
        EXPECT_EQ(v.objective, *l.known_optimum) << l.name;
        ++ran;
      }
    }
  EXPECT_EQ(ran, 9);
}

}  // namespace
