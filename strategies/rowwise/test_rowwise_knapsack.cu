// test_rowwise_knapsack.cu — gpu.rowwise in the GPU knapsack solvers' shared suite
// (problems/knapsack/testing/gpu_solver_suite.hpp), on the GPU, against a CPU DP: random
// instances of every generator, edge cases, the int64 path, every read-only path, offload on
// and off (including a ring so small that it wraps around on every chunk), value-only mode,
// peak device bytes equal to rowwise's estimate, refusals, and larger cases. Every
// certificate is rechecked with knapsack::Problem::check.
//
// Random instances use a fresh seed per run, printed with every failure; rerun one with
//   DPGPU_TEST_SEED=<seed> ./test_rowwise_knapsack
// Skipped (not passed) without a device. Parameter checks: test_rowwise_params.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/context.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack/testing/gpu_solver_suite.hpp"
#include "rowwise_config.hpp"
#include "rowwise_knapsack.hpp"

namespace {

using dpgpu::rowwise::RowwiseConfig;
using knapsack::gpu_test::base_seed;
using knapsack::gpu_test::Counters;
using knapsack::gpu_test::GpuSolver;
using knapsack::gpu_test::GpuStrategy;
using knapsack::gpu_test::KnapsackGpuConfigs;
using knapsack::gpu_test::KnapsackGpuStrategy;
using knapsack::gpu_test::Named;

std::string describe(const RowwiseConfig& c) {
  return "block=" + std::to_string(c.block) + " offload=" + (c.offload ? "true" : "false") +
         " readonly=" + c.readonly + " reconstruct=" + (c.reconstruct ? "true" : "false") +
         " offload_rows=" + std::to_string(c.offload_rows) +
         " offload_slots=" + std::to_string(c.offload_slots);
}

std::string test_name(const RowwiseConfig& c) {
  return "b" + std::to_string(c.block) + "_" + c.readonly + (c.offload ? "_offload" : "_device") +
         (c.reconstruct ? "" : "_valueonly") +
         (c.offload_rows ? "_rows" + std::to_string(c.offload_rows) : "") + "_slots" +
         std::to_string(c.offload_slots);
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

// gpu.rowwise in configuration `c`, held to `expected` counters where given.
GpuSolver solver(const RowwiseConfig& c,
                 std::function<Counters(const knapsack::Instance&)> expected = {}) {
  GpuSolver s;
  s.name = test_name(c);
  s.config = describe(c);
  s.reconstruct = c.reconstruct;
  s.solve = [c](const knapsack::Instance& x, dpgpu::Context& ctx) {
    const auto r = dpgpu::rowwise::rowwise_knapsack(x, c, ctx);
    return knapsack::gpu_test::Answer{r.value, r.items};
  };
  s.expected_counters = std::move(expected);
  s.random.salt = 0x5157;  // the default sizes: one launch per item row
  return s;
}

// ----------------------------------------------------------------- every configuration

// The wrapping ring at block 96, one staging slot with 3-row chunks at 256, value only on the
// device at 128.
std::vector<GpuSolver> all_configs() {
  std::vector<GpuSolver> out;
  for (const auto& p : knapsack::gpu_test::config_sweep({96, 256, 3, 128}))
    out.push_back(solver(config(p.block, p.offload, p.readonly, p.reconstruct, p.chunk, p.slots)));
  return out;
}

INSTANTIATE_TEST_SUITE_P(RowwiseKnapsack, KnapsackGpuConfigs, ::testing::ValuesIn(all_configs()),
                         knapsack::gpu_test::config_test_name);

// ----------------------------------------------------------------- offload, memory, refusals

// One offloaded chunk per row through a ring of 2 slots: chunks, rows, launches and bytes.
GpuSolver tiny_ring() {
  const auto c = config(128, true, "ldg", true, 1, 2);
  return solver(c, [c](const knapsack::Instance& x) {
    const auto g = dpgpu::rowwise::rowwise_geometry(x, c);
    return Counters{{"offload_chunks", double(x.size())},  // one chunk per row
                    {"offload_chunk_rows", 1},
                    {"bytes_offloaded", double(g.items) * double(g.bits_row_bytes())},
                    {"rows", double(g.items)},
                    {"kernel_launches", double(g.items)}};
  });
}

// Peak device bytes equal to rowwise's estimate, and the padded row it was computed from.
GpuSolver memory_checked(const RowwiseConfig& c) {
  return solver(c, [c](const knapsack::Instance& x) {
    const auto g = dpgpu::rowwise::rowwise_geometry(x, c);
    return Counters{{"peak_device_bytes", double(dpgpu::rowwise::device_bytes(g, c))},
                    {"padded_cells", double(g.padded_cells)}};
  });
}

GpuStrategy rowwise_strategy() {
  GpuStrategy s;
  s.name = "rowwise";
  s.defaults = solver(config(256, true, "ldg"));
  s.tiny_ring = {{"paper2014 n=97 C=5000", knapsack::paper2014_instance(97, 5000, -1, base_seed())},
                 tiny_ring()};
  s.memory_instance = {"paper2014 n=300 C=20000",
                       knapsack::paper2014_instance(300, 20000, -1, base_seed())};
  for (const auto& c : {config(256, true, "ldg"), config(256, false, "ldg"),
                        config(64, true, "texture", false), config(256, true, "plain", true, 7, 3)})
    s.memory.push_back(memory_checked(c));
  // 1500 items (the paper's n), C = 2·10^5: 3·10^8 cells; and the same with values that
  // make 64-bit cells necessary.
  s.larger = {
      {{"paper2014 n=1500 C=200000", knapsack::paper2014_instance(1500, 200000, -1, base_seed())},
       solver(config(256, true, "ldg"))},
      {{"paper2014 n=1500 C=200000 value_max=1000",
        knapsack::paper2014_instance(1500, 200000, 1000, base_seed())},
       solver(config(256, false, "ldg"))},
      {{"uncorrelated n=2000 R=1e9 (64-bit)",
        knapsack::pisinger_instance(knapsack::PisingerClass::uncorrelated, 2000, 1000000000, 50000,
                                    0, base_seed())},
       solver(config(256, true, "ldg"))}};
  s.refused = {solver(config(100, true, "ldg")), solver(config(256, true, "surface"))};
  s.shared_file_sizes = {100, 1000, 2000};
  return s;
}

INSTANTIATE_TEST_SUITE_P(RowwiseKnapsack, KnapsackGpuStrategy,
                         ::testing::Values(rowwise_strategy()),
                         knapsack::gpu_test::strategy_test_name);

}  // namespace
