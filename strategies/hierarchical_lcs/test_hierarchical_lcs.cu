// gpu.hierarchical against the CPU: the GPU levels' output boundaries against SIMPLE-LCS on
// regions of every shape, and whole solves (the LCS string checked, its length equal to the
// reference) around cutoff and gpu_cutoff, alphabets 2 and 200, planted instances, counters.
// Skipped (not passed) without a device.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "dpgpu/context.hpp"
#include "dpgpu/registry.hpp"
#include "gpu_leaf.cuh"
#include "hierarchical_lcs.hpp"
#include "lcs/chowdhury.hpp"
#include "lcs/generators.hpp"
#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"
#include "lcs/reference.hpp"
#include "require_device.hpp"

namespace {

using dpgpu::hierarchical::HierarchicalConfig;
namespace ch = lcs::chowdhury;

std::unique_ptr<dpgpu::Context> gpu_context() {
  return std::make_unique<dpgpu::Context>(dpgpu::Backend::Gpu,
                                          dpgpu::Context::Clock::now() + std::chrono::hours(1));
}

// True scores of the whole table, for boundaries of inner regions.
std::vector<std::vector<ch::Score>> table(const std::string& a, const std::string& b) {
  std::vector<std::vector<ch::Score>> d(a.size() + 1, std::vector<ch::Score>(b.size() + 1, 0));
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      d[i][j] = a[i - 1] == b[j - 1] ? d[i - 1][j - 1] + 1 : std::max(d[i - 1][j], d[i][j - 1]);
  return d;
}

TEST(HierarchicalLevels, OutputBoundaryEqualsTheTable) {
  REQUIRE_DEVICE();
  auto x = lcs::random_pair(700, 650, 3, 11);
  const auto d = table(x.a, x.b);
  struct Shape {
    std::int64_t grid, sub;
  };
  const Shape shapes[] = {{32, 2}, {32, 4}, {64, 8}, {64, 16}, {16, 16}, {512, 4}};
  const ch::Region regions[] = {{0, 0, 700, 650}, {13, 7, 1, 1},      {100, 3, 1, 600},
                                {5, 200, 450, 1}, {37, 41, 63, 65},   {64, 64, 128, 128},
                                {3, 9, 697, 641}, {200, 100, 33, 500}};
  for (auto [grid, sub] : shapes) {
    HierarchicalConfig c{16, 1 << 20, grid, sub};
    auto ctx = gpu_context();
    dpgpu::hierarchical::HierarchicalCounters k;
    dpgpu::hierarchical::GpuLeaf leaf(x.a, x.b, c, *ctx, k);
    for (const auto& r : regions) {
      std::vector<ch::Score> top(r.w), left(r.h);
      for (std::size_t q = 0; q < r.w; ++q) top[q] = d[r.i0][r.j0 + 1 + q];
      for (std::size_t q = 0; q < r.h; ++q) left[q] = d[r.i0 + 1 + q][r.j0];
      leaf.boundary(r, top.data(), left.data(), d[r.i0][r.j0]);
      for (std::size_t q = 0; q < r.w; ++q)
        ASSERT_EQ(top[q], d[r.i0 + r.h][r.j0 + 1 + q])
            << "grid " << grid << " sub " << sub << " region " << r.i0 << "," << r.j0 << " " << r.h
            << "x" << r.w << " bottom " << q;
      for (std::size_t q = 0; q < r.h; ++q)
        ASSERT_EQ(left[q], d[r.i0 + 1 + q][r.j0 + r.w])
            << "grid " << grid << " sub " << sub << " right " << q;
    }
    EXPECT_EQ(k.gpu_subproblems, std::size(regions));
  }
}

void expect_lcs_small(const std::string& a, const std::string& b);

// A small case for compute-sanitizer (sanitize.txt): every sub, padding in both directions.
TEST(HierarchicalLevels, SmallCaseForSanitizers) {
  REQUIRE_DEVICE();
  auto x = lcs::random_pair(150, 130, 4, 12);
  const auto d = table(x.a, x.b);
  for (std::int64_t sub : {2, 4, 8, 16}) {
    HierarchicalConfig c{16, 1 << 20, 64, sub};
    auto ctx = gpu_context();
    dpgpu::hierarchical::HierarchicalCounters k;
    dpgpu::hierarchical::GpuLeaf leaf(x.a, x.b, c, *ctx, k);
    const ch::Region r{3, 5, 147, 125};
    std::vector<ch::Score> top(r.w), left(r.h);
    for (std::size_t q = 0; q < r.w; ++q) top[q] = d[r.i0][r.j0 + 1 + q];
    for (std::size_t q = 0; q < r.h; ++q) left[q] = d[r.i0 + 1 + q][r.j0];
    leaf.boundary(r, top.data(), left.data(), d[r.i0][r.j0]);
    for (std::size_t q = 0; q < r.w; ++q) ASSERT_EQ(top[q], d[150][r.j0 + 1 + q]) << sub;
    for (std::size_t q = 0; q < r.h; ++q) ASSERT_EQ(left[q], d[r.i0 + 1 + q][130]) << sub;
  }
  expect_lcs_small(x.a, x.b);
}

std::string solve(const std::string& a, const std::string& b, const HierarchicalConfig& c,
                  dpgpu::hierarchical::HierarchicalCounters* counters = nullptr) {
  auto ctx = gpu_context();
  ctx->begin();
  auto r = dpgpu::hierarchical::hierarchical_lcs(a, b, c, *ctx);
  ctx->end();
  if (counters) *counters = r.counters;
  return r.subsequence;
}

void expect_lcs(const std::string& a, const std::string& b, const HierarchicalConfig& c) {
  SCOPED_TRACE(testing::Message() << "|a|=" << a.size() << " |b|=" << b.size() << " cutoff "
                                  << c.cutoff << " gpu_cutoff " << c.gpu_cutoff << " grid "
                                  << c.grid << " sub " << c.sub);
  const auto s = solve(a, b, c);
  const auto v = lcs::Problem::check({a, b}, {s});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, lcs::reference_length(a, b));
  EXPECT_EQ(std::int64_t(s.size()), lcs::cpu::bitparallel(a, b));
}

void expect_lcs_small(const std::string& a, const std::string& b) {
  expect_lcs(a, b, {8, 64, 32, 4});
}

TEST(HierarchicalLcs, EdgeSizesAlphabetsAroundBothCutoffs) {
  REQUIRE_DEVICE();
  const HierarchicalConfig c{16, 128, 32, 4};
  const int sizes[] = {0, 1, 15, 16, 17, 127, 128, 129, 300};
  std::uint64_t seed = 1;
  for (int k : {2, 200})
    for (int n : sizes)
      for (int m : sizes) {
        auto x = lcs::random_pair(n, m, k, seed++);
        expect_lcs(x.a, x.b, c);
      }
}

TEST(HierarchicalLcs, OneStringMuchLongerEveryConfiguration) {
  REQUIRE_DEVICE();
  const HierarchicalConfig configs[] = {{16, 256, 64, 2},
                                        {32, 512, 64, 4},
                                        {8, 300, 64, 8},
                                        {64, 1024, 256, 16},
                                        {256, 131072, 512, 4}};
  const std::pair<int, int> shapes[] = {{5000, 3}, {40, 3000}, {2500, 700}, {1500, 1600}};
  std::uint64_t seed = 500;
  for (const auto& c : configs)
    for (int k : {2, 4, 200})
      for (auto [n, m] : shapes) {
        auto x = lcs::random_pair(n, m, k, seed++);
        expect_lcs(x.a, x.b, c);
      }
}

TEST(HierarchicalLcs, PlantedInstancesExactAndCountersAddUp) {
  REQUIRE_DEVICE();
  for (double fraction : {0.0, 0.5, 1.0}) {
    auto p = lcs::planted_pair(3000, 2600, 4, fraction, 7);
    const HierarchicalConfig c{32, 1024, 128, 4};
    dpgpu::hierarchical::HierarchicalCounters k;
    const auto s = solve(p.instance.a, p.instance.b, c, &k);
    const auto v = lcs::Problem::check(p.instance, {s});
    EXPECT_TRUE(v.ok) << v.message;
    EXPECT_EQ(v.objective, p.lcs_length) << fraction;
    EXPECT_GT(k.gpu_subproblems, 0u);
    EXPECT_GE(k.gpu_cells, k.gpu_real_cells);
    EXPECT_EQ(k.gpu_subblocks * 16, k.gpu_cells);
    // The forward pass covers 3/4 of the table at the top level alone.
    EXPECT_GE(k.gpu_real_cells + k.cpu_cells, 3000u * 2600u * 3 / 4);
    EXPECT_GT(k.h2d_bytes, 5600u);
  }
}

TEST(HierarchicalLcs, PeakHostMemoryIsLinear) {
  REQUIRE_DEVICE();
  const HierarchicalConfig c{32, 2048, 128, 4};
  std::uint64_t prev = 0;
  for (int n : {4000, 8000, 16000}) {
    auto x = lcs::random_pair(n, n, 4, 3);
    dpgpu::hierarchical::HierarchicalCounters k;
    const auto s = solve(x.a, x.b, c, &k);
    EXPECT_TRUE(lcs::Problem::check(x, {s}).ok);
    const std::uint64_t fixed = 32 * 32 + 2 * 2048 * 4;
    EXPECT_LE(k.peak_host_bytes, 16u * 2 * n + fixed + n) << n;
    if (prev) {
      EXPECT_LE(k.peak_host_bytes - fixed, 2 * (prev - fixed) + 2048)
          << n;  // one more level: a constant more
    }
    prev = k.peak_host_bytes;
  }
}

TEST(HierarchicalLcs, ThroughTheRegistryWithCertificate) {
  REQUIRE_DEVICE();
  auto* s = dpgpu::Registry::get().solver("lcs", "gpu.hierarchical");
  ASSERT_NE(s, nullptr);
  auto p = lcs::planted_pair(5000, 4000, 4, 0.4, 9);
  const auto length = p.lcs_length;
  auto x = dpgpu::erase_instance<lcs::Problem>({"planted", std::move(p.instance), length});
  auto ctx = gpu_context();
  ctx->begin();
  auto out = s->solve(
      x, s->schema.resolve({{"gpu_cutoff", std::int64_t{2048}}, {"cutoff", std::int64_t{64}}}),
      *ctx);
  ctx->end();
  EXPECT_EQ(out.objective, length);
  auto verdict = dpgpu::Registry::get().problem("lcs")->check(x, out);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->ok) << verdict->message;
  EXPECT_GT(ctx->counters().at("gpu_subproblems"), 0);
  EXPECT_GT(ctx->counters().at("kernel_launches"), 0);
  EXPECT_LE(ctx->device_peak(), s->memory(x, s->schema.resolve({})).device);
}

// The shared memory a level-1 block needs is the GPU's to give: a rule the planner asks where
// a GPU is usable (an H100 gives 227 KiB: grid <= 11,622), and the driver's guard.
TEST(HierarchicalLcs, GridBeyondSharedMemoryIsAGpuRule) {
  REQUIRE_DEVICE();
  auto* s = dpgpu::Registry::get().solver("lcs", "gpu.hierarchical");
  ASSERT_NE(s, nullptr);
  auto x = dpgpu::erase_instance<lcs::Problem>(
      {"pair", lcs::Instance{"ACGTTGCA", "AGTTCA"}, std::nullopt});
  EXPECT_EQ(s->check_device(s->schema.resolve({}), x), std::nullopt);
  const auto huge = s->schema.resolve({{"grid", std::int64_t{16384}}, {"sub", std::int64_t{16}}});
  const auto why = s->check_device(huge, x);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("'grid' 16384 needs 327688 bytes of shared memory"), std::string::npos)
      << *why;
  auto ctx = gpu_context();
  EXPECT_THROW(dpgpu::hierarchical::hierarchical_lcs(
                   "ACGT", "AGT", dpgpu::bind<HierarchicalConfig>(*s, huge), *ctx),
               dpgpu::InputError);
}

TEST(HierarchicalLcs, InvalidConfigurationIsRefusedByName) {
  REQUIRE_DEVICE();
  auto ctx = gpu_context();
  try {
    dpgpu::hierarchical::hierarchical_lcs("ACGT", "AGT", {16, 1024, 100, 8}, *ctx);
    FAIL() << "no error";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("grid"), std::string::npos);
  }
}

}  // namespace
