// test_kokkos_lcs.cpp — kokkos.wavefront (CUDA) and kokkos.wavefront_host (OpenMP) for LCS
// against cpu.linear on random strings (every mode, every compiled rows_per_thread and
// columns_per_step, several tile widths, lengths of 1 and not multiples of a tile), planted pairs with a known LCS, and
// the shared data sets. Device tests skip without a GPU; both skip in builds without Kokkos.
// Rerun a failure with DPGPU_TEST_SEED=<seed>.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "dpgpu/shared_data.hpp"
#include "lcs/generators.hpp"
#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"
#include "lcs_kokkos_config.hpp"
#include "kokkos_test_support.hpp"

namespace {

using namespace dpgpu::kokkos;
using dpgpu::kokkos::test::base_seed;
using dpgpu::kokkos::test::solve;

std::string random_string(std::size_t n, int alphabet, std::mt19937_64& rng) {
  std::string s(n, '\0');
  std::uniform_int_distribution<int> d(0, alphabet - 1);
  for (auto& ch : s) ch = static_cast<char>(alphabet == 256 ? d(rng) : 'A' + d(rng));
  return s;
}

dpgpu::AnyInstance instance(std::string a, std::string b) {
  return dpgpu::erase_instance<lcs::Problem>(
      {"random", lcs::Instance{std::move(a), std::move(b)}, std::nullopt});
}

struct Case {
  std::size_t n, m;
  int alphabet;
};

// Lengths: one cell, one row, less than a tile, not multiples of a tile, b longer than a.
const Case kCases[] = {{1, 1, 4},        {1, 300, 4},    {300, 1, 4},    {31, 33, 2},
                       {517, 300, 4},    {300, 517, 4},  {1000, 999, 4}, {2049, 1500, 20},
                       {700, 3000, 256}, {2600, 2100, 4}};

void agrees_on_random_strings(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  const auto& s = test::solver("lcs", device);
  const Space space = device ? Space::Device : Space::Host;
  std::mt19937_64 rng(base_seed());
  for (const Case& c : kCases) {
    const std::string a = random_string(c.n, c.alphabet, rng),
                      b = random_string(c.m, c.alphabet, rng);
    const std::int64_t expected = lcs::cpu::linear(a, b);
    const auto x = instance(a, b);
    // Cell mode dispatches once per cell diagonal: small cases only (fork-join per dispatch on
    // the host backend).
    if (c.n + c.m <= 2100)
      EXPECT_EQ(solve(s, x, {{"mode", std::string("cell")}}).objective, expected)
          << "cell n=" << c.n << " m=" << c.m << " seed " << base_seed();
    for (int rows : compiled_rows(space)) {
      for (int columns : compiled_columns(space)) {
        for (std::int64_t width : {32, 96}) {
          const auto out = solve(s, x,
                                 {{"rows_per_thread", std::int64_t{rows}},
                                  {"columns_per_step", std::int64_t{columns}},
                                  {"tile_width", width}});
          EXPECT_EQ(out.objective, expected)
              << "tile rows_per_thread=" << rows << " columns_per_step=" << columns
              << " tile_width=" << width << " n=" << c.n << " m=" << c.m << " seed " << base_seed();
        }
      }
    }
  }
}

void agrees_on_planted_pairs(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  const auto& s = test::solver("lcs", device);
  for (double fraction : {0.0, 0.5, 1.0}) {
    auto p = lcs::planted_pair(3000, 2500, 4, fraction, base_seed());
    const auto x =
        dpgpu::erase_instance<lcs::Problem>({"planted", std::move(p.instance), p.lcs_length});
    dpgpu::Context* ctx = nullptr;
    EXPECT_EQ(solve(s, x, {}, &ctx).objective, *x.known_optimum) << "fraction " << fraction;
    EXPECT_GT(ctx->counters().at("kernel_launches"), 0);
    EXPECT_EQ(ctx->phase_seconds().count("compute"), 1u);
    auto small = lcs::planted_pair(900, 700, 4, fraction, base_seed() + 1);
    const auto y = dpgpu::erase_instance<lcs::Problem>(
        {"planted", std::move(small.instance), small.lcs_length});
    EXPECT_EQ(solve(s, y, {{"mode", std::string("cell")}}).objective, *y.known_optimum)
        << "cell, fraction " << fraction;
  }
}

// A few small cases of every kernel: what compute-sanitizer runs (sanitize.txt).
void small_cases(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  const auto& s = test::solver("lcs", device);
  std::mt19937_64 rng(base_seed());
  for (const Case& c : {Case{300, 517, 4}, Case{1, 40, 2}, Case{1500, 1200, 4}}) {
    const std::string a = random_string(c.n, c.alphabet, rng),
                      b = random_string(c.m, c.alphabet, rng);
    const std::int64_t expected = lcs::cpu::linear(a, b);
    const auto x = instance(a, b);
    EXPECT_EQ(solve(s, x, {{"mode", std::string("cell")}}).objective, expected) << "cell n=" << c.n;
    for (std::int64_t width : {32, 256})
      for (int columns : compiled_columns(device ? Space::Device : Space::Host))
        EXPECT_EQ(solve(s, x, {{"tile_width", width}, {"columns_per_step", std::int64_t{columns}}})
                      .objective,
                  expected)
            << "tile n=" << c.n << " width " << width << " columns_per_step " << columns;
  }
}

TEST(KokkosLcsHost, SmallCases) { small_cases(false); }
TEST(KokkosLcsDevice, SmallCases) { small_cases(true); }
TEST(KokkosLcsHost, AgreesWithCpuLinearOnRandomStrings) { agrees_on_random_strings(false); }
TEST(KokkosLcsDevice, AgreesWithCpuLinearOnRandomStrings) { agrees_on_random_strings(true); }
TEST(KokkosLcsHost, FindsThePlantedLength) { agrees_on_planted_pairs(false); }
TEST(KokkosLcsDevice, FindsThePlantedLength) { agrees_on_planted_pairs(true); }

void agrees_on_shared_pair(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  auto dir = dpgpu::shared_data_dir("sequences");
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/sequences not present";
  auto loaded = lcs::Problem::load({{dir / "edlib_ecoli_prefix10k/e_coli_DH1_prefix10000.fasta",
                                     dir / "edlib_ecoli_prefix10k/mutated_90_perc.fasta"},
                                    ""});
  auto x = dpgpu::erase_instance<lcs::Problem>(std::move(loaded.at(0)));
  const auto& inst = x.as<lcs::Instance>();
  const std::int64_t expected = lcs::cpu::bitparallel(inst.a, inst.b);
  const auto& s = test::solver("lcs", device);
  EXPECT_EQ(solve(s, x, {}).objective, expected);
  if (device) EXPECT_EQ(solve(s, x, {{"mode", std::string("cell")}}).objective, expected);
}

TEST(KokkosLcsHost, AgreesOnTheSharedEcoliPair) { agrees_on_shared_pair(false); }
TEST(KokkosLcsDevice, AgreesOnTheSharedEcoliPair) { agrees_on_shared_pair(true); }

TEST(KokkosLcsRegistry, BothSolversAreListedWithTheirBackends) {
  const auto& device = test::solver("lcs", true);
  const auto& host = test::solver("lcs", false);
  EXPECT_EQ(device.backend, dpgpu::Backend::Gpu);
  EXPECT_EQ(device.backend_name, "kokkos-cuda");
  EXPECT_EQ(host.backend, dpgpu::Backend::Cpu);
  EXPECT_EQ(host.backend_name, "kokkos-openmp");
  EXPECT_EQ(device.unavailable, unavailable_reason(true));
  EXPECT_EQ(host.unavailable, unavailable_reason(false));
  EXPECT_EQ(host.unavailable.empty(), bool(host.solve));
#if !DPGPU_WITH_KOKKOS
  EXPECT_NE(host.unavailable.find("without Kokkos"), std::string::npos);
#endif
  EXPECT_EQ(device.schema.resolve({}).integer("rows_per_thread"), 16);
  EXPECT_EQ(host.schema.resolve({}).integer("rows_per_thread"), 256);
  EXPECT_EQ(device.schema.resolve({}).integer("columns_per_step"), 4);
  EXPECT_EQ(host.schema.resolve({}).integer("columns_per_step"), 1);
  EXPECT_THROW(host.schema.resolve({{"mode", std::string("diagonal")}}), dpgpu::InputError);
  // The rules are the schema's, so `dpgpu check` refuses what the solve would.
  EXPECT_THROW(device.schema.resolve({{"rows_per_thread", std::int64_t{64}}}), dpgpu::InputError);
  EXPECT_THROW(host.schema.resolve({{"columns_per_step", std::int64_t{4}}}), dpgpu::InputError);
  EXPECT_THROW(device.schema.resolve({{"tile_width", std::int64_t{100}}}), dpgpu::InputError);
  EXPECT_NO_THROW(
      device.schema.resolve({{"mode", std::string("cell")}, {"tile_width", std::int64_t{100}}}));
  const auto c = dpgpu::bind<LcsKokkosConfig<Space::Device>>(
      device, device.schema.resolve({{"columns_per_step", std::int64_t{2}}}));
  EXPECT_EQ(c.columns_per_step, 2);
  EXPECT_EQ(c.rows_per_thread, 16);
}

TEST(KokkosLcsRegistry, MemoryEstimateCoversTheBoundaries) {
  const auto x = instance(std::string(10000, 'A'), std::string(3000, 'C'));
  const auto& device = test::solver("lcs", true);
  const auto need = device.memory(x, device.schema.resolve({}));
  // Strings (2 bytes) and boundaries (4 bytes) of the padded 10240 rows and 3072 columns.
  EXPECT_GE(need.device, (10240u + 3072u) * 6u);
  EXPECT_LT(need.device, (10240u + 3072u) * 7u);
}

TEST(KokkosLcsConfig, RejectsShapesThatAreNotCompiledAndBadWidths) {
  LcsKokkosConfig<Space::Device> d;
  d.rows_per_thread = 64;
  EXPECT_THROW(validate(d, "kokkos.wavefront"), dpgpu::InputError);
  LcsKokkosConfig<Space::Host> h;
  h.rows_per_thread = 64;
  EXPECT_NO_THROW(validate(h, "kokkos.wavefront_host"));
  h.columns_per_step = 2;  // the host team is one thread: K = 1 only
  EXPECT_THROW(validate(h, "kokkos.wavefront_host"), dpgpu::InputError);
  h.columns_per_step = 1;
  h.tile_width = 100;
  EXPECT_THROW(validate(h, "kokkos.wavefront_host"), dpgpu::InputError);
  d.mode = LcsMode::Cell;  // cell mode ignores the tile knobs
  EXPECT_NO_THROW(validate(d, "kokkos.wavefront"));
}

}  // namespace
