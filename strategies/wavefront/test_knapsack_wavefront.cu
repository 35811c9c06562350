// test_knapsack_wavefront.cu — gpu.wavefront (knapsack) in the GPU knapsack solvers' shared
// suite (problems/knapsack/testing/gpu_solver_suite.hpp), on the GPU, against a CPU DP: random
// instances of every generator, edge cases, the int64 path, every read-only path, offload on
// and off (including a ring so small that it wraps around on every diagonal), value-only
// mode, peak device bytes equal to the estimate, refusals and a larger case; here, the memory
// refusal of a ring that cannot fit. Every certificate is rechecked with
// knapsack::Problem::check.
//
// Random instances use a fresh seed per run, printed with every failure; rerun one with
//   DPGPU_TEST_SEED=<seed> ./test_knapsack_wavefront
// Skipped (not passed) without a device. Parameter checks: test_knapsack_wavefront_params.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "require_device.hpp"
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack/testing/gpu_solver_suite.hpp"
#include "knapsack_config.hpp"
#include "knapsack_wavefront.hpp"

namespace {

using dpgpu::wavefront::KnapsackWavefrontConfig;
using knapsack::gpu_test::base_seed;
using knapsack::gpu_test::Counters;
using knapsack::gpu_test::GpuSolver;
using knapsack::gpu_test::GpuStrategy;
using knapsack::gpu_test::KnapsackGpuConfigs;
using knapsack::gpu_test::KnapsackGpuStrategy;

std::string describe(const KnapsackWavefrontConfig& c) {
  return "block=" + std::to_string(c.block) + " offload=" + (c.offload ? "true" : "false") +
         " readonly=" + c.readonly + " reconstruct=" + (c.reconstruct ? "true" : "false") +
         " offload_diagonals=" + std::to_string(c.offload_diagonals) +
         " offload_slots=" + std::to_string(c.offload_slots);
}

std::string test_name(const KnapsackWavefrontConfig& c) {
  return "b" + std::to_string(c.block) + "_" + c.readonly + (c.offload ? "_offload" : "_device") +
         (c.reconstruct ? "" : "_valueonly") +
         (c.offload_diagonals ? "_diags" + std::to_string(c.offload_diagonals) : "") + "_slots" +
         std::to_string(c.offload_slots);
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

// gpu.wavefront (knapsack) in configuration `c`, held to `expected` counters where given.
GpuSolver solver(const KnapsackWavefrontConfig& c,
                 std::function<Counters(const knapsack::Instance&)> expected = {}) {
  GpuSolver s;
  s.name = test_name(c);
  s.config = describe(c);
  s.reconstruct = c.reconstruct;
  s.solve = [c](const knapsack::Instance& x, dpgpu::Context& ctx) {
    const auto r = dpgpu::wavefront::knapsack_wavefront(x, c, ctx);
    return knapsack::gpu_test::Answer{r.value, r.items};
  };
  s.expected_counters = std::move(expected);
  // One launch per diagonal (n + C of them): capacities kept to a few thousand.
  s.random = {0x3a7e, 2, 100, 100, 5000};
  return s;
}

// ----------------------------------------------------------------- every configuration

// The wrapping ring at block 64, one staging slot with 5-diagonal chunks at 128, value only on
// the device at 96.
std::vector<GpuSolver> all_configs() {
  std::vector<GpuSolver> out;
  for (const auto& p : knapsack::gpu_test::config_sweep({64, 128, 5, 96}))
    out.push_back(solver(config(p.block, p.offload, p.readonly, p.reconstruct, p.chunk, p.slots)));
  return out;
}

INSTANTIATE_TEST_SUITE_P(KnapsackWavefront, KnapsackGpuConfigs, ::testing::ValuesIn(all_configs()),
                         knapsack::gpu_test::config_test_name);

// ----------------------------------------------------------------- offload, memory, refusals

// One offloaded chunk per diagonal through a ring of 2 slots: chunks, diagonals, launches,
// bytes and the window of diagonal buffers.
GpuSolver tiny_ring() {
  const auto c = config(64, true, "ldg", true, 1, 2);
  return solver(c, [c](const knapsack::Instance& x) {
    const auto g = dpgpu::wavefront::knapsack_geometry(x, c);
    return Counters{{"offload_chunks", double(g.diagonals)},  // one chunk per diagonal
                    {"bytes_offloaded", double(g.diagonals) * double(g.bits_diagonal_bytes())},
                    {"diagonals", double(g.diagonals)},
                    {"kernel_launches", double(g.diagonals)},
                    {"window", double(g.window)}};
  });
}

// Peak device bytes equal to the wavefront's estimate.
GpuSolver memory_checked(const KnapsackWavefrontConfig& c) {
  return solver(c, [c](const knapsack::Instance& x) {
    const auto g = dpgpu::wavefront::knapsack_geometry(x, c);
    return Counters{{"peak_device_bytes", double(dpgpu::wavefront::device_bytes(g, c))}};
  });
}

GpuStrategy wavefront_strategy() {
  GpuStrategy s;
  s.name = "wavefront";
  s.defaults = solver(config(256, true, "ldg"));
  s.tiny_ring = {{"paper2014 n=70 C=900", knapsack::paper2014_instance(70, 900, -1, base_seed())},
                 tiny_ring()};
  s.memory_instance = {"paper2014 n=300 C=3000",
                       knapsack::paper2014_instance(300, 3000, -1, base_seed())};
  for (const auto& c : {config(256, true, "ldg"), config(256, false, "ldg"),
                        config(64, true, "texture", false), config(128, true, "plain", true, 7, 3)})
    s.memory.push_back(memory_checked(c));
  // The paper's n = 1500 with C = 3000: 4500 diagonals, 4.5·10^6 cells.
  s.larger = {
      {{"paper2014 n=1500 C=3000", knapsack::paper2014_instance(1500, 3000, -1, base_seed())},
       solver(config(256, true, "ldg"))},
      {{"paper2014 n=1500 C=20000 value_max=1000",
        knapsack::paper2014_instance(1500, 20000, 1000, base_seed())},
       solver(config(256, false, "texture"))}};
  s.refused = {solver(config(100, true, "ldg")), solver(config(256, true, "surface"))};
  s.shared_file_sizes = {100, 200};  // C is ~n·R/4: a few 10^4 diagonals each
  return s;
}

INSTANTIATE_TEST_SUITE_P(KnapsackWavefront, KnapsackGpuStrategy,
                         ::testing::Values(wavefront_strategy()),
                         knapsack::gpu_test::strategy_test_name);

// ----------------------------------------------------------------- the wavefront's own

TEST(KnapsackWavefrontGpu, RefusesARingThatDoesNotFit) {
  REQUIRE_DEVICE();
  // One item of weight 2·10^9 - 10 in a knapsack of 2·10^9 - 10: a ring of 2·10^9 diagonals of
  // 288 cells (over 2 TB) — refused before allocating, saying what it needs and what there is.
  auto x = knapsack::gpu_test::make(2000000000 - 10, {{2000000000 - 10, 1}});
  dpgpu::Context ctx(dpgpu::Backend::Gpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
  try {
    dpgpu::wavefront::knapsack_wavefront(x, config(256, true, "ldg"), ctx);
    ADD_FAILURE() << "a ring of ~2 TB was not refused";
  } catch (const dpgpu::OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("available"), std::string::npos) << e.what();
  }
}

}  // namespace
