// test_knapsack_wavefront_params.cpp — gpu.wavefront (knapsack): registration, parameters,
// ring geometry and memory estimate. Host C++ only: runs in every build, with or without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_config.hpp"

namespace {

using dpgpu::wavefront::KnapsackWavefrontConfig;

knapsack::Instance instance(std::int64_t capacity,
                            std::vector<std::pair<std::int64_t, std::int64_t>> wv) {
  knapsack::Instance x;
  x.capacity = capacity;
  for (auto [w, v] : wv) {
    x.weight.push_back(w);
    x.value.push_back(v);
  }
  return x;
}

TEST(KnapsackWavefrontParams, RegisteredWithSchema) {
  const auto* e = dpgpu::Registry::get().solver("knapsack", "gpu.wavefront");
  ASSERT_NE(e, nullptr) << "gpu.wavefront is not registered for knapsack";
  EXPECT_EQ(e->backend, dpgpu::Backend::Gpu);
  EXPECT_TRUE(e->memory);
#if DPGPU_WITH_CUDA
  EXPECT_TRUE(e->solve);
  EXPECT_EQ(e->unavailable, "");
#else
  EXPECT_EQ(e->unavailable, "dpgpu was built without CUDA");
#endif
  const dpgpu::Params d = e->schema.resolve({});
  EXPECT_EQ(d.integer("block"), 256);
  EXPECT_TRUE(d.flag("offload"));
  EXPECT_EQ(d.text("readonly"), "ldg");
  EXPECT_TRUE(d.flag("reconstruct"));
  EXPECT_EQ(d.integer("offload_diagonals"), 0);
  EXPECT_EQ(d.integer("offload_slots"), 4);
  const std::vector<std::pair<std::string, dpgpu::ValueMap>> bad = {
      {"block", {{"block", std::int64_t{2048}}}},
      {"offload", {{"offload", std::string("yes")}}},
      {"readonly", {{"readonly", std::string("surface")}}},
      {"offload_slots", {{"offload_slots", std::int64_t{0}}}},
      {"offload_diagonals", {{"offload_diagonals", std::int64_t{-1}}}},
      {"mode", {{"mode", std::string("tile")}}},  // an LCS parameter: not knapsack's
  };
  for (const auto& [key, given] : bad) {
    try {
      e->schema.resolve(given);
      ADD_FAILURE() << "accepted a bad '" << key << "'";
    } catch (const dpgpu::InputError& err) {
      EXPECT_NE(std::string(err.what()).find("'" + key + "'"), std::string::npos) << err.what();
    }
  }
}

TEST(KnapsackWavefrontParams, ValidateRefusesByName) {
  KnapsackWavefrontConfig c;
  c.block = 100;
  EXPECT_THROW(dpgpu::wavefront::validate(c), dpgpu::InputError);
  c = {};
  c.readonly = "surface";
  EXPECT_THROW(dpgpu::wavefront::validate(c), dpgpu::InputError);
  c = {};
  c.offload_slots = 0;
  EXPECT_THROW(dpgpu::wavefront::validate(c), dpgpu::InputError);
  EXPECT_NO_THROW(dpgpu::wavefront::validate(KnapsackWavefrontConfig{}));
}

TEST(KnapsackWavefrontParams, RingGeometry) {
  using dpgpu::wavefront::knapsack_geometry;
  // 4 items, one above C: 3 rows; w_max 40 → window 42; rows padded to 256, + 32 offset.
  auto x = instance(100, {{10, 5}, {101, 7}, {40, 9}, {1, 1}});
  auto g = knapsack_geometry(x, KnapsackWavefrontConfig{});
  EXPECT_EQ(g.items, 3);
  EXPECT_EQ(g.max_weight, 40);
  EXPECT_EQ(g.window, 42);
  EXPECT_EQ(g.padded_rows, 256);
  EXPECT_EQ(g.diagonal_length, 288);
  EXPECT_EQ(g.diagonals, 103);
  EXPECT_EQ(g.words_per_diagonal, 8);
  EXPECT_EQ(g.cell_bytes, 4);
  EXPECT_EQ(g.ring_bytes(), 42u * 288u * 4u);
  // The paper's n = 1500, C = 10^6, weights below 0.3·C: a ring of ~3·10^5 diagonals.
  knapsack::Instance p;
  p.capacity = 1000000;
  for (int j = 0; j < 1500; ++j) {
    p.weight.push_back(1 + (j * 7919) % 299999);
    p.value.push_back(1 + j % 1000);
  }
  g = knapsack_geometry(p, KnapsackWavefrontConfig{});
  EXPECT_EQ(g.padded_rows, 1536);
  EXPECT_EQ(g.diagonals, 1001500);
  EXPECT_LE(g.window, 300001);
  EXPECT_LT(g.ring_bytes(), std::uint64_t{2} << 30) << "the C = 10^6 ring should stay under 2 GiB";
  // Too many diagonals for 32-bit diagonal numbers: refused by name.
  EXPECT_THROW(
      knapsack_geometry(instance(std::int64_t{1} << 32, {{1, 1}}), KnapsackWavefrontConfig{}),
      dpgpu::InputError);
}

TEST(KnapsackWavefrontParams, MemoryEstimate) {
  const auto* e = dpgpu::Registry::get().solver("knapsack", "gpu.wavefront");
  ASSERT_NE(e, nullptr);
  dpgpu::AnyInstance any;
  any.data = std::make_shared<const knapsack::Instance>(
      instance(100, {{10, 5}, {101, 7}, {40, 9}, {1, 1}}));
  const std::uint64_t ring = 42u * 288u * 4u, items = 256u * 4u + 256u * 4u, bits_diag = 8u * 4u;
  // Offload: 4 MiB chunks capped at the 103 diagonals; two chunks on the device.
  auto need = e->memory(any, e->schema.resolve({}));
  EXPECT_EQ(need.device, ring + items + 2u * 103u * bits_diag);
  need = e->memory(any, e->schema.resolve({{"offload", false}}));
  EXPECT_EQ(need.device, ring + items + 103u * bits_diag + 3u);
  need = e->memory(any, e->schema.resolve({{"reconstruct", false}}));
  EXPECT_EQ(need.device, ring + items);
  any.data = std::make_shared<const knapsack::Instance>(instance(5, {{6, 1}}));
  EXPECT_EQ(e->memory(any, e->schema.resolve({})).device, 0u);
}

}  // namespace
