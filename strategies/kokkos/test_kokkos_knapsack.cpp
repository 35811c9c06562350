// test_kokkos_knapsack.cpp — kokkos.wavefront (CUDA) and kokkos.wavefront_host (OpenMP) for
// the 0-1 knapsack against cpu.dp on random Pisinger instances (every class, capacities that
// are not multiples of a word, items heavier than C, 64-bit values), and the recorded optima
// of the shared data files; the chosen items rechecked by the problem's own check.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dpgpu/shared_data.hpp"
#include "knapsack/generators.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_cpu.hpp"
#include "knapsack_kokkos.hpp"
#include "kokkos_test_support.hpp"

namespace {

using dpgpu::kokkos::test::base_seed;
using dpgpu::kokkos::test::solve;

void expect_optimal(bool device, const knapsack::Instance& inst, std::int64_t optimum,
                    const std::string& what, int word_bits = 0) {
  const auto& s = dpgpu::kokkos::test::solver("knapsack", device);
  const auto x = dpgpu::erase_instance<knapsack::Problem>({what, inst, std::nullopt});
  dpgpu::Context* ctx = nullptr;
  dpgpu::ValueMap params;
  if (word_bits) params["word_bits"] = std::int64_t{word_bits};
  const auto out = solve(s, x, params, &ctx);
  EXPECT_EQ(out.objective, optimum) << what << " seed " << base_seed();
  ASSERT_TRUE(out.solution) << what;
  const auto verdict =
      knapsack::Problem::check(inst, *static_cast<const knapsack::Solution*>(out.solution.get()));
  EXPECT_TRUE(verdict.ok) << what << ": " << verdict.message;
  EXPECT_EQ(verdict.objective, optimum) << what;
  EXPECT_EQ(ctx->phase_seconds().count("compute"), 1u);
}

void agrees_with_cpu_dp(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  using knapsack::PisingerClass;
  std::uint64_t seed = base_seed();
  for (auto cls : {PisingerClass::uncorrelated, PisingerClass::weakly_correlated,
                   PisingerClass::strongly_correlated, PisingerClass::subset_sum})
    for (std::int64_t n : {1, 7, 60, 300})
      for (std::int64_t capacity : {0, 1, 63, 64, 1000, 4099}) {
        const auto x = knapsack::pisinger_instance(cls, n, 1000, capacity, 0.5, ++seed);
        const auto value = knapsack::cpu::dp(x).value;
        for (int bits : dpgpu::kokkos::compiled_word_bits(device))
          expect_optimal(device, x, value,
                         std::string(knapsack::to_string(cls)) + " n=" + std::to_string(n) + " C=" +
                             std::to_string(capacity) + " word_bits=" + std::to_string(bits),
                         bits);
      }
  // Values above 2^31 in total: 64-bit cells.
  auto big =
      knapsack::pisinger_instance(PisingerClass::uncorrelated, 200, 1000000000, -1, 0.5, ++seed);
  ASSERT_FALSE(knapsack::cpu::values_fit_32_bits(big));
  big.capacity = 5000;
  expect_optimal(device, big, knapsack::cpu::dp(big).value, "64-bit values");
}

void reaches_shared_optima(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  auto dir = dpgpu::shared_data_dir("knapsack");
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/knapsack not present";
  int ran = 0;
  for (const char* file :
       {"pisinger_large_scale/knapPI_1_1000_1000_1", "pisinger_large_scale/knapPI_3_1000_1000_1",
        "pisinger_csv/knapPI_1_50_100000.csv", "kplib_subsetsum/n00100_R01000_s000.kp"}) {
    const auto loaded = knapsack::Problem::load({{dir / file}, ""});
    const auto& l = loaded.at(0);
    ASSERT_TRUE(l.known_optimum) << file;
    expect_optimal(device, l.instance, *l.known_optimum, file);
    ++ran;
  }
  EXPECT_EQ(ran, 4);
}

// A few small cases: what compute-sanitizer runs (sanitize.txt).
void small_cases(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  std::uint64_t seed = base_seed();
  for (std::int64_t capacity : {0, 100, 1000}) {
    const auto x = knapsack::pisinger_instance(knapsack::PisingerClass::weakly_correlated, 40, 300,
                                               capacity, 0.5, ++seed);
    for (int bits : dpgpu::kokkos::compiled_word_bits(device))
      expect_optimal(device, x, knapsack::cpu::dp(x).value, "C=" + std::to_string(capacity), bits);
  }
}

TEST(KokkosKnapsackHost, SmallCases) { small_cases(false); }
TEST(KokkosKnapsackDevice, SmallCases) { small_cases(true); }
TEST(KokkosKnapsackHost, AgreesWithCpuDp) { agrees_with_cpu_dp(false); }
TEST(KokkosKnapsackDevice, AgreesWithCpuDp) { agrees_with_cpu_dp(true); }
TEST(KokkosKnapsackHost, ReachesTheSharedOptima) { reaches_shared_optima(false); }
TEST(KokkosKnapsackDevice, ReachesTheSharedOptima) { reaches_shared_optima(true); }

TEST(KokkosKnapsackRegistry, MemoryEstimateCountsRowsAndBits) {
  knapsack::Instance x;
  x.capacity = 6399;
  x.value = {5, 6, 7};
  x.weight = {10, 20, 7000};  // the last never fits: no row
  const auto& device = dpgpu::kokkos::test::solver("knapsack", true);
  const auto& host = dpgpu::kokkos::test::solver("knapsack", false);
  // Two rows of 6400 int32 cells, and 2 rows of bits: 800 bytes each either way.
  EXPECT_GE(device
                .memory(dpgpu::erase_instance<knapsack::Problem>({"x", x, std::nullopt}),
                        device.schema.resolve({}))
                .device,
            2u * 6400u * 4u + 2u * 800u);
  EXPECT_GE(host.memory(dpgpu::erase_instance<knapsack::Problem>({"x", x, std::nullopt}),
                        host.schema.resolve({}))
                .host,
            2u * 6400u * 4u + 2u * 800u);
  EXPECT_EQ(device.backend_name, "kokkos-cuda");
  EXPECT_EQ(host.backend_name, "kokkos-openmp");
}

}  // namespace
