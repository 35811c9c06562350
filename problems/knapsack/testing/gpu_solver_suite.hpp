// gpu_solver_suite.hpp — the GPU knapsack solvers' shared tests (gpu.rowwise, gpu.wavefront),
// written once in gpu_solver_suite.cpp and instantiated in each strategy's own test file:
//
//   KnapsackGpuConfigs (one GpuSolver a test): random instances of every generator, the edge
//     cases and the 64-bit path, each answer held to a CPU DP and its certificate rechecked;
//   KnapsackGpuStrategy (one GpuStrategy a test): the offload ring that wraps around on every
//     chunk, peak device bytes equal to the estimate, the phases, larger instances, bad
//     configurations refused by name, and the shared data files reaching their known optima.
//
//   using knapsack::gpu_test::KnapsackGpuConfigs;
//   INSTANTIATE_TEST_SUITE_P(RowwiseKnapsack, KnapsackGpuConfigs, ::testing::ValuesIn(solvers),
//                            knapsack::gpu_test::config_test_name);
//
// Every test skips (never passes) without a usable GPU. Random instances use a fresh seed per
// run, printed with every failure; DPGPU_TEST_SEED=<seed> reruns one.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/context.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack/testing/solver_test_support.hpp"

namespace knapsack::gpu_test {

using Counters = std::map<std::string, double>;

// What the suite checks of a solver's answer.
struct Answer {
  std::int64_t value = 0;
  std::optional<std::vector<std::int32_t>> items;  // chosen items when reconstructing
};

// The random instances a strategy solves in test time (random_instances' arguments).
struct RandomSizes {
  std::uint64_t salt = 0;  // xor-ed into the run's seed: each strategy its own instances
  int per_generator = 2;
  std::int64_t max_n = 120, max_range = 3000, max_capacity = 30000;
};

// One GPU solver in one configuration, with what the strategy knows it must report.
struct GpuSolver {
  std::string name;    // test-name suffix, e.g. "b256_ldg_offload_slots4"
  std::string config;  // the configuration in words, in every failure message
  bool reconstruct = true;
  std::function<Answer(const Instance&, dpgpu::Context&)> solve;
  // Counters this configuration must report on an instance (from the strategy's geometry and
  // memory estimate); none when empty.
  std::function<Counters(const Instance&)> expected_counters;
  RandomSizes random;
};

// One configuration of the sweep every GPU knapsack solver is tested in; each strategy makes
// its own config from it (chunk: rows or diagonals per offloaded chunk, 0 = the default).
struct SweepPoint {
  int block = 256;
  bool offload = true;
  std::string readonly = "ldg";
  bool reconstruct = true;
  std::int64_t chunk = 0;
  std::int64_t slots = 4;
};

// The block sizes (not multiples of a default) a strategy picks for the sweep's last cases.
struct SweepBlocks {
  int wrap = 96;                    // the ring that wraps around: 1 per chunk, 2 slots
  int one_slot = 256;               // one staging slot...
  std::int64_t one_slot_chunk = 3;  // ...with chunks of this many rows or diagonals
  int value_only_on_device = 128;   // value only, offload off
};

// The sweep, in this order (the test names' indices): every read-only path with offload on and
// off at block 256, blocks 32 and 1024, the wrapping ring, one staging slot, value only with
// and without offload.
std::vector<SweepPoint> config_sweep(const SweepBlocks& blocks);

struct SolveCase {
  Named instance;
  GpuSolver solver;
};

// One strategy's cases of KnapsackGpuStrategy.
struct GpuStrategy {
  std::string name;    // test-name suffix, e.g. "rowwise"
  GpuSolver defaults;  // solves the phases' instance and the shared data files
  // An offload ring so small that it wraps around on every chunk; its expected_counters name
  // the chunks, bytes offloaded and launches.
  SolveCase tiny_ring;
  // One instance in several configurations, whose expected_counters give the memory estimate.
  Named memory_instance;
  std::vector<GpuSolver> memory;
  std::vector<SolveCase> larger;   // larger instances (seconds, not minutes)
  std::vector<GpuSolver> refused;  // configurations the solver must refuse with InputError
  // n of the Pisinger large_scale files knapPI_{1,2,3}_<n>_1000_1 solved in test time.
  std::vector<int> shared_file_sizes;
};

// Solves `inst` in a fresh GPU Context and holds the result (value, and the packing when the
// solver reconstructs) to the CPU DP, then each of the solver's expected counters; returns the
// Context's counters.
Counters expect_solves(const Named& inst, const GpuSolver& solver);

class KnapsackGpuConfigs : public ::testing::TestWithParam<GpuSolver> {
 protected:
  void SetUp() override;  // skips without a usable GPU
};

class KnapsackGpuStrategy : public ::testing::TestWithParam<GpuStrategy> {
 protected:
  void SetUp() override;  // skips without a usable GPU
};

// Test names: "<index>_<solver name>" and "<strategy name>".
std::string config_test_name(const ::testing::TestParamInfo<GpuSolver>& info);
std::string strategy_test_name(const ::testing::TestParamInfo<GpuStrategy>& info);

// What gtest prints of a parameter (instead of its bytes).
inline void PrintTo(const GpuSolver& s, std::ostream* os) { *os << s.config; }
inline void PrintTo(const GpuStrategy& s, std::ostream* os) { *os << s.name; }

}  // namespace knapsack::gpu_test
