// test_rowwise_params.cpp — gpu.rowwise's registration, parameters, geometry and memory
// estimate. Host C++ only: runs in every build, with or without CUDA or a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "rowwise_config.hpp"

namespace {

using dpgpu::rowwise::RowwiseConfig;

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

TEST(RowwiseParams, RegisteredWithSchema) {
  const auto* e = dpgpu::Registry::get().solver("knapsack", "gpu.rowwise");
  ASSERT_NE(e, nullptr) << "gpu.rowwise is not registered for knapsack";
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
  EXPECT_FALSE(d.flag("offload"));
  EXPECT_EQ(d.text("readonly"), "ldg");
  EXPECT_TRUE(d.flag("reconstruct"));
  EXPECT_EQ(d.integer("offload_rows"), 0);
  EXPECT_EQ(d.integer("offload_slots"), 4);
  const std::vector<std::pair<std::string, dpgpu::ValueMap>> bad = {
      {"block", {{"block", std::int64_t{2048}}}},
      {"block", {{"block", std::int64_t{16}}}},
      {"block",
       {{"block", std::int64_t{48}}}},  // a rule beyond the range, refused by `dpgpu check`
      {"offload", {{"offload", std::int64_t{1}}}},
      {"readonly", {{"readonly", std::string("surface")}}},
      {"offload_slots", {{"offload_slots", std::int64_t{0}}}},
      {"offload_rows", {{"offload_rows", std::int64_t{-1}}}},
      {"window", {{"window", std::int64_t{4}}}},
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

TEST(RowwiseParams, CapacityRuleForThePlanner) {
  const auto* e = dpgpu::Registry::get().solver("knapsack", "gpu.rowwise");
  ASSERT_NE(e, nullptr);
  const auto p = e->schema.resolve({});
  EXPECT_EQ(e->check(p, {{"n", std::int64_t{10}}, {"capacity", std::int64_t{1} << 20}}),
            std::nullopt);
  const auto why = e->check(p, {{"n", std::int64_t{10}}, {"capacity", std::int64_t{1} << 31}});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("32-bit device weights"), std::string::npos) << *why;
  EXPECT_EQ(dpgpu::bind<RowwiseConfig>(*e, e->schema.resolve({{"block", std::int64_t{512}}})).block,
            512);
}

TEST(RowwiseParams, ValidateRefusesByName) {
  RowwiseConfig c;
  c.block = 48;
  EXPECT_THROW(dpgpu::rowwise::validate(c), dpgpu::InputError);
  c = {};
  c.readonly = "surface";
  EXPECT_THROW(dpgpu::rowwise::validate(c), dpgpu::InputError);
  c = {};
  c.offload_slots = 0;
  EXPECT_THROW(dpgpu::rowwise::validate(c), dpgpu::InputError);
  EXPECT_NO_THROW(dpgpu::rowwise::validate(RowwiseConfig{}));
}

TEST(RowwiseParams, Geometry) {
  using dpgpu::rowwise::rowwise_geometry;
  // 3 items, one heavier than C: 2 rows; int32 cells, 4 per thread, rows padded to 1024 cells.
  auto x = instance(1000, {{10, 5}, {2000, 7}, {1000, 9}});
  RowwiseConfig offloading;
  offloading.offload = true;  // the chunk geometry below is the offload path's
  auto g = rowwise_geometry(x, offloading);
  EXPECT_EQ(g.items, 2);
  EXPECT_EQ(g.cell_bytes, 4);
  EXPECT_EQ(g.cells_per_thread, 4);
  EXPECT_EQ(g.padded_cells, 1024);
  EXPECT_EQ(g.words_per_row, 32);
  EXPECT_EQ(g.blocks, 1);
  EXPECT_EQ(g.chunk_rows, 2);  // auto chunk (4 MiB) capped at the rows
  // C + 1 = 1025 needs a second block.
  x.capacity = 1024;
  EXPECT_EQ(rowwise_geometry(x, RowwiseConfig{}).padded_cells, 2048);
  // A total value above 2^31 - 1 among the items that fit: int64 cells, 2 per thread.
  auto big = instance(100, {{10, std::int64_t{1} << 31}, {20, 5}, {200, std::int64_t{1} << 40}});
  g = rowwise_geometry(big, RowwiseConfig{});
  EXPECT_EQ(g.cell_bytes, 8);
  EXPECT_EQ(g.cells_per_thread, 2);
  EXPECT_EQ(g.padded_cells, 512);
  // ... but a huge value on an item that cannot fit does not force int64.
  auto heavy = instance(100, {{10, 5}, {200, std::int64_t{1} << 40}});
  EXPECT_EQ(rowwise_geometry(heavy, RowwiseConfig{}).cell_bytes, 4);
  // A capacity beyond 32-bit weights is refused by name.
  EXPECT_THROW(rowwise_geometry(instance(std::int64_t{1} << 33, {{1, 1}}), RowwiseConfig{}),
               dpgpu::InputError);
}

TEST(RowwiseParams, MemoryEstimate) {
  const auto* e = dpgpu::Registry::get().solver("knapsack", "gpu.rowwise");
  ASSERT_NE(e, nullptr);
  dpgpu::AnyInstance any;
  // 1500 items, C = 10^7 (the size), all fitting, int32.
  knapsack::Instance x;
  x.capacity = 10000000;
  for (int j = 0; j < 1500; ++j) {
    x.weight.push_back(1 + j % 1000);
    x.value.push_back(1 + j % 900);
  }
  any.data = std::make_shared<const knapsack::Instance>(x);
  const std::uint64_t padded = (10000001 + 1023) / 1024 * 1024, row_bits = padded / 8;
  const std::uint64_t rows_d = 2 * padded * 4 + 1500 * 4 + 1500 * 4;
  // Offload: 4 MiB chunks → 3 rows of 1.25 MB; two chunks on the device.
  const std::uint64_t chunk = (std::uint64_t{4} << 20) / row_bits;
  EXPECT_EQ(chunk, 3u);
  auto need = e->memory(any, e->schema.resolve({{"offload", true}}));
  EXPECT_EQ(need.device, rows_d + 2 * chunk * row_bits);
  EXPECT_EQ(need.host, 1500 * 4 + 1500 * 4 + 8 + 1500 * row_bits + 4 * chunk * row_bits);
  // Bits kept on the device (default): all of them, plus one flag per item.
  need = e->memory(any, e->schema.resolve({}));
  EXPECT_EQ(need.device, rows_d + 1500 * row_bits + 1500);
  // Value only: the two rows and the items.
  need = e->memory(any, e->schema.resolve({{"reconstruct", false}}));
  EXPECT_EQ(need.device, rows_d);
  // Nothing fits: no memory.
  any.data = std::make_shared<const knapsack::Instance>(instance(5, {{6, 1}}));
  EXPECT_EQ(e->memory(any, e->schema.resolve({})).device, 0u);
}

}  // namespace
