// test_tsp_wavefront_params.cpp — gpu.wavefront for the TSP: registration, parameters, the
// memory estimate, and the layer arithmetic (including the kernel's incremental rank of
// S \ {c_p}). Host C++ only: runs in every build, with or without CUDA or a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/generators.hpp"
#include "tsp/subset_rank.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"

namespace {

using dpgpu::wavefront::TspWavefrontConfig;

void expect_refused(const TspWavefrontConfig& cfg, const std::string& parameter) {
  try {
    dpgpu::wavefront::validate(cfg);
    ADD_FAILURE() << "accepted; expected a refusal naming '" << parameter << "'";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + parameter + "'"), std::string::npos) << e.what();
  }
}

TEST(TspWavefrontParams, RegisteredWithSchemaAndDefaults) {
  const auto* s = dpgpu::Registry::get().solver("tsp", "gpu.wavefront");
  ASSERT_NE(s, nullptr) << "gpu.wavefront is not registered for tsp";
  EXPECT_EQ(s->backend, dpgpu::Backend::Gpu);
  const auto p = s->schema.resolve({});
  const TspWavefrontConfig d;
  EXPECT_EQ(p.integer("block"), d.block);
  EXPECT_EQ(p.text("readonly"), "ldg");
  EXPECT_EQ(p.text("distances"), "shared");
  EXPECT_TRUE(p.flag("offload"));
  EXPECT_TRUE(p.flag("reconstruct"));
  EXPECT_EQ(p.integer("offload_slots"), d.offload_slots);
  EXPECT_EQ(p.integer("offload_slot_bytes"), d.offload_slot_bytes);
  EXPECT_EQ(p.integer("waves"), d.waves);
  const auto c = dpgpu::bind<TspWavefrontConfig>(*s, p);
  EXPECT_NO_THROW(dpgpu::wavefront::validate(c));
  EXPECT_EQ(c.distances, dpgpu::wavefront::TspDistances::Shared);
  // n beyond the layers' limit: refused before anything runs (the planner's instance rule).
  EXPECT_EQ(s->check(p, {{"n", std::int64_t{33}}}), std::nullopt);
  ASSERT_TRUE(s->check(p, {{"n", std::int64_t{34}}}));
  EXPECT_NE(s->check(p, {{"n", std::int64_t{34}}})->find("n = 34"), std::string::npos);
  // The schema refuses what is out of range, naming the key.
  for (auto [key, value] : {std::pair<const char*, dpgpu::Value>{"block", std::int64_t{16}},
                            {"readonly", std::string("surface")},
                            {"distances", std::string("constant")},
                            {"offload_slots", std::int64_t{1}},
                            {"offload_slot_bytes", std::int64_t{8}},
                            {"waves", std::int64_t{0}}}) {
    dpgpu::ValueMap given;
    given[key] = value;
    try {
      s->schema.resolve(given, "test");
      ADD_FAILURE() << key << " accepted";
    } catch (const dpgpu::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
}

TEST(TspWavefrontParams, ValidateRefusesByName) {
  for (int block : {0, 16, 33, 1000, 2048}) {
    TspWavefrontConfig c;
    c.block = block;
    expect_refused(c, "block");
  }
  TspWavefrontConfig c;
  c.readonly = "surface";
  expect_refused(c, "readonly");
  c = {};
  c.offload_slots = 1;
  expect_refused(c, "offload_slots");
  c = {};
  c.offload_slot_bytes = 63;
  expect_refused(c, "offload_slot_bytes");
  c = {};
  c.waves = 65;
  expect_refused(c, "waves");
}

TEST(TspWavefrontParams, LayerArithmetic) {
  using namespace dpgpu::wavefront;
  for (int m = 2; m <= 32; ++m) {
    // Σ_{k>=2} C(m,k)·k = m·2^(m-1) - m.
    EXPECT_EQ(tsp_argmin_bytes(m),
              std::uint64_t(m) * (std::uint64_t{1} << (m - 1)) - std::uint64_t(m))
        << m;
    EXPECT_EQ(tsp_argmin_offset(m, 2), 0u);
    EXPECT_EQ(tsp_argmin_offset(m, m) + tsp_layer_cells(m, m), tsp_argmin_bytes(m));
    EXPECT_LT(tsp_layer_subsets(m, m / 2), std::uint64_t{1} << 32) << "ranks must fit 32 bits";
  }
  // n = 30: the two largest adjacent layers are k = 14, 15 of m = 29 (77,558,760 subsets each).
  EXPECT_EQ(tsp_layer_subsets(29, 14), 77558760u);
  EXPECT_EQ(tsp_two_layer_cells(29), 77558760u * 29u);
  const auto b30 = tsp_bytes(30, 4, TspWavefrontConfig{});
  EXPECT_EQ(b30.argmins, 29ull * (1ull << 28) - 29);
  EXPECT_EQ(b30.device, 77558760ull * 29 * 4 + 29 * 29 * 4 + 33 * 33 * 4 + 77558760ull * 29);
  // Without reconstruction: no argmins anywhere.
  TspWavefrontConfig cost_only;
  cost_only.reconstruct = false;
  EXPECT_EQ(tsp_bytes(30, 4, cost_only).argmins, 0u);
  EXPECT_LT(tsp_bytes(30, 4, cost_only).host, 1024u);
}

// The kernel walks p = 0..k-1 keeping rank(S \ {c_p}) = below + above with
//   below += C(c_p, p+1) after p, above = Σ_{q>=1} C(c_q, q) minus C(c_p, p) at p.
// Checked here for every subset of m <= 12 against subset_rank.hpp's rank().
TEST(TspWavefrontParams, IncrementalPredecessorRankMatchesRank) {
  using tsp::subsets::kBinomials;
  for (int m = 2; m <= 12; ++m)
    for (int k = 2; k <= m; ++k)
      for (std::uint64_t r = 0; r < kBinomials(m, k); ++r) {
        const std::uint64_t S = tsp::subsets::unrank(k, r);
        ASSERT_EQ(tsp::subsets::rank(S), r);
        std::uint64_t above = 0, below = 0;
        {
          std::uint64_t t = S & (S - 1);
          for (int q = 1; t != 0; ++q, t &= t - 1)
            above += kBinomials(tsp::subsets::lowest_element(t), q);
        }
        std::uint64_t rest = S;
        for (int p = 0; p < k; ++p) {
          const int cp = tsp::subsets::lowest_element(rest);
          rest &= rest - 1;
          if (p > 0) above -= kBinomials(cp, p);
          ASSERT_EQ(below + above, tsp::subsets::rank(S & ~(std::uint64_t{1} << cp)))
              << "m=" << m << " k=" << k << " r=" << r << " p=" << p;
          below += kBinomials(cp, p + 1);
        }
      }
}

TEST(TspWavefrontParams, MemoryEstimateThroughTheRegistry) {
  const auto* s = dpgpu::Registry::get().solver("tsp", "gpu.wavefront");
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->memory);
  auto inst =
      dpgpu::erase_instance<tsp::Problem>({"x", tsp::random_matrix(25, 1, 1000, 1), std::nullopt});
  const auto need = s->memory(inst, s->schema.resolve({}));
  const auto want = dpgpu::wavefront::tsp_bytes(25, 4, TspWavefrontConfig{});
  EXPECT_EQ(need.device, want.device);
  EXPECT_EQ(need.host, want.host);
  EXPECT_GT(need.host, 24ull << 23) << "argmins of n = 25: 24·2^23 bytes";
  // Argmins kept on the device: the tour is walked back there, no host copy of them.
  TspWavefrontConfig on_device;
  on_device.offload = false;
  EXPECT_LT(dpgpu::wavefront::tsp_bytes(25, 4, on_device).host, 1024u);
  EXPECT_EQ(dpgpu::wavefront::tsp_bytes(25, 4, on_device).argmins,
            dpgpu::wavefront::tsp_argmin_bytes(24));
  // Wide arcs make 8-byte cells: twice the cost layers.
  auto wide = dpgpu::erase_instance<tsp::Problem>(
      {"w", tsp::random_matrix(25, 0, 1'000'000'000'000, 1), std::nullopt});
  EXPECT_EQ(dpgpu::wavefront::tsp_cell_bytes(wide.as<tsp::Instance>()), 8);
  EXPECT_EQ(s->memory(wide, s->schema.resolve({})).device,
            dpgpu::wavefront::tsp_bytes(25, 8, TspWavefrontConfig{}).device);
}

}  // namespace
