// gpu.mcm (every kernel, fixed / table / calibrate, 32- and 64-bit cells) and gpu.mcm_tiled
// against cpu.serial on random chains: n = 1, 2, 3, small primes, repeated dimensions,
// dimensions of 1, up to a few hundred (several tiles); certificates rechecked; refusals.
// Skipped without a GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "dpgpu/error.hpp"
#include "mcm/generators.hpp"
#include "mcm_cpu.hpp"
#include "mcm_solvers.hpp"
#include "require_device.hpp"

namespace dpgpu::mcm_gpu {
namespace {

Context make_ctx() {
  return Context(Backend::Gpu, Context::Clock::now() + std::chrono::minutes(5));
}

std::vector<::mcm::Instance> corpus(bool large) {
  std::vector<::mcm::Instance> v;
  std::uint64_t seed = 10;
  std::vector<std::int64_t> sizes{1, 2, 3, 5, 7, 13, 31, 33, 64, 65, 97};
  if (large) sizes.insert(sizes.end(), {200, 331});
  for (std::int64_t n : sizes) {
    v.push_back(::mcm::random_instance(n, 1, 100, ++seed));
    v.push_back(::mcm::random_instance(n, 1, 3, ++seed));  // many ties, dimensions of 1
  }
  ::mcm::Instance eq;
  eq.p.assign(130, 9);
  v.push_back(eq);
  v.push_back(::mcm::random_instance(150, 2000, 3000,
                                     3));  // costs above 2^32: escaped cells (auto), 64-bit cells
  v.push_back(::mcm::random_instance(120, 1, 4000, 4));  // some costs above 2^32, most below
  return v;
}

void expect_agrees(const ::mcm::Instance& x, const GpuAnswer& got, const std::string& what) {
  const auto ref = ::mcm::cpu::serial(x);
  EXPECT_EQ(got.cost, ref.cost) << what << " n=" << x.n();
  const auto c = ::mcm::cost_of(x, got.parenthesization);
  ASSERT_TRUE(c.ok) << what << " n=" << x.n() << ": " << c.why;
  EXPECT_EQ(c.cost, ref.cost) << what << " n=" << x.n() << " certificate";
}

// Policy fixed with setting s (what the bound parameters kernel, threads, blocks make).
McmConfig with_setting(const Setting& s) {
  McmConfig c;
  c.kernel = s.kernel;
  c.threads = s.threads;
  c.blocks = s.blocks;
  EXPECT_EQ(fixed_setting(c), s);
  return c;
}

std::vector<Setting> fixed_settings() {
  return {{Kernel::thread, 32, 1}, {Kernel::thread, 128, 1}, {Kernel::block, 32, 1},
          {Kernel::block, 256, 1}, {Kernel::blocks, 32, 2},  {Kernel::blocks, 64, 16}};
}

TEST(McmGpu, EveryKernelAgreesWithSerial) {
  REQUIRE_DEVICE();
  for (const auto& x : corpus(true))
    for (const auto& s : fixed_settings())
      for (CellBits cell : {CellBits::automatic, CellBits::b64}) {
        McmConfig c = with_setting(s);
        c.cell = cell;
        auto ctx = make_ctx();
        expect_agrees(x, solve_mcm(x, c, ctx),
                      to_string(s) + (cell == CellBits::b64 ? " cell 64" : " cell auto"));
        if (cell == CellBits::automatic && !::mcm::costs_fit_32_bits(x) && x.n() >= 100)
          EXPECT_GT(ctx.counters().at("escaped_cells"), 0) << "n=" << x.n();
      }
}

TEST(McmGpu, TableAndCalibrateAgreeWithSerial) {
  REQUIRE_DEVICE();
  for (const auto& x : corpus(true)) {
    McmConfig t;
    t.policy = Policy::table;
    t.table = "2-10:block:64,11-40:thread:32,41-60:blocks:32:4,61-*:block:32";
    auto ctx = make_ctx();
    expect_agrees(x, solve_mcm(x, t, ctx), "table");
    for (double budget : {0.01, 1.0}) {  // 1.0: a sample at every power of two and multiple of 64
      McmConfig c;
      c.policy = Policy::calibrate;
      c.budget = budget;
      auto ctx2 = make_ctx();
      expect_agrees(x, solve_mcm(x, c, ctx2), "calibrate");
    }
  }
}

TEST(McmGpu, TiledAgreesWithSerial) {
  REQUIRE_DEVICE();
  for (const auto& x : corpus(true))
    for (int target : {0, 1, 7})
      for (Arith arith : {Arith::automatic, Arith::fp64}) {
        TiledConfig c;
        c.split_target = target;
        c.compare = target != 7 ? Compare::bits : Compare::fp64;
        c.arith = arith;
        auto ctx = make_ctx();
        const std::string what = std::string(tiled_uses_int(x, c) ? "tiled int32" : "tiled fp64") +
                                 " target " + std::to_string(target);
        expect_agrees(x, solve_mcm_tiled(x, c, ctx), what);
      }
}

TEST(McmGpu, LargerChainTiledAgainstOmp) {
  REQUIRE_DEVICE();
  const auto x = ::mcm::random_instance(1500, 1, 1000, 77);
  const auto ref = ::mcm::cpu::omp(x, 0);
  auto ctx = make_ctx();
  const auto t = solve_mcm_tiled(x, TiledConfig{}, ctx);
  EXPECT_EQ(t.cost, ref.cost);
  EXPECT_EQ(::mcm::cost_of(x, t.parenthesization).cost, ref.cost);
  McmConfig c;
  c.policy = Policy::calibrate;
  auto ctx2 = make_ctx();
  const auto g = solve_mcm(x, c, ctx2);
  EXPECT_EQ(g.cost, ref.cost);
  EXPECT_EQ(::mcm::cost_of(x, g.parenthesization).cost, ref.cost);
}

// Several tile diagonals on the int32 path (bound below 2^31), split panels and the warp walk
// that resolves the splits inside tile K; and the same chain on gpu.mcm with escaped cells off.
TEST(McmGpu, LargerChainTiledInt32AgainstOmp) {
  REQUIRE_DEVICE();
  for (std::uint64_t seed : {5u, 6u}) {
    const auto x = ::mcm::random_instance(1500, 1, seed == 5 ? 100 : 3, seed);
    ASSERT_TRUE(tiled_uses_int(x, TiledConfig{}));
    const auto ref = ::mcm::cpu::omp(x, 0);
    for (int target : {0, 1}) {
      TiledConfig c;
      c.split_target = target;
      auto ctx = make_ctx();
      const auto t = solve_mcm_tiled(x, c, ctx);
      EXPECT_EQ(t.cost, ref.cost) << seed << " target " << target;
      const auto cert = ::mcm::cost_of(x, t.parenthesization);
      ASSERT_TRUE(cert.ok) << cert.why;
      EXPECT_EQ(cert.cost, ref.cost);
    }
  }
}

TEST(McmGpu, RefusesCostsAboveTheBound) {
  REQUIRE_DEVICE();
  ::mcm::Instance x;
  x.p.assign(100, std::int64_t{1} << 22);  // P³ = 2^66
  auto ctx = make_ctx();
  EXPECT_THROW(solve_mcm(x, McmConfig{}, ctx), InputError);
  ::mcm::Instance y;
  y.p.assign(100, std::int64_t{1} << 18);  // P³ = 2^54: fits int64, not exact doubles
  auto ctx2 = make_ctx();
  EXPECT_THROW(solve_mcm_tiled(y, TiledConfig{}, ctx2), InputError);
  McmConfig c;
  c.cell = CellBits::b32;
  auto ctx3 = make_ctx();
  EXPECT_THROW(solve_mcm(::mcm::random_instance(100, 2000, 3000, 1), c, ctx3), InputError);
  auto ctx4 = make_ctx();
  EXPECT_EQ(solve_mcm(y, McmConfig{}, ctx4).cost, ::mcm::cpu::serial(y).cost);
}

// Small cases for compute-sanitizer (sanitize-mcm.txt): every kernel, calibrate, the escaped
// cells, and both tiled paths.
TEST(McmGpuSanitize, SmallCases) {
  REQUIRE_DEVICE();
  for (std::int64_t n : {1, 2, 7, 70, 140}) {
    const auto x = ::mcm::random_instance(n, 1, 50, std::uint64_t(n));
    for (const auto& s : fixed_settings()) {
      McmConfig c = with_setting(s);
      auto ctx = make_ctx();
      expect_agrees(x, solve_mcm(x, c, ctx), to_string(s));
    }
    for (Arith arith : {Arith::automatic, Arith::fp64}) {  // int32 (DPX, warp walk) and doubles
      TiledConfig t;
      t.split_target = 5;
      t.arith = arith;
      auto ctx = make_ctx();
      expect_agrees(x, solve_mcm_tiled(x, t, ctx), "tiled");
    }
    McmConfig c;
    c.policy = Policy::calibrate;
    c.budget = 1.0;
    auto ctx = make_ctx();
    expect_agrees(x, solve_mcm(x, c, ctx), "calibrate");
  }
  // The escape to 64-bit cells (costs above 2^32 beside costs below).
  const auto wide = ::mcm::random_instance(100, 800, 2000, 9);
  auto ctx = make_ctx();
  expect_agrees(wide, solve_mcm(wide, with_setting({Kernel::block, 64, 1}), ctx), "escape");
  EXPECT_GT(ctx.counters().at("escaped_cells"), 0);
}

}  // namespace
}  // namespace dpgpu::mcm_gpu
