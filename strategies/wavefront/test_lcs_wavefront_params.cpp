// test_lcs_wavefront_params.cpp — gpu.wavefront's parameters, registration, memory estimate
// and geometry. Host C++ only: runs in every build, with or without CUDA or a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#include "lcs_config.hpp"
#include "lcs_geometry.hpp"

namespace {

using dpgpu::wavefront::LcsMode;
using dpgpu::wavefront::LcsWavefrontConfig;

std::string describe(const LcsWavefrontConfig& c) {
  std::ostringstream os;
  os << "mode=" << dpgpu::wavefront::to_string(c.mode) << " block=" << c.block
     << " rows_per_thread=" << c.rows_per_thread << " tile_width=" << c.tile_width;
  return os.str();
}
LcsWavefrontConfig tile(int r, int tw, int block) {
  LcsWavefrontConfig c;
  c.mode = LcsMode::Tile;
  c.rows_per_thread = r;
  c.tile_width = tw;
  c.block = block;
  return c;
}
LcsWavefrontConfig cell(int block) {
  LcsWavefrontConfig c;
  c.mode = LcsMode::Cell;
  c.block = block;
  return c;
}

void expect_refused(const LcsWavefrontConfig& cfg, const std::string& parameter) {
  try {
    dpgpu::wavefront::validate(cfg);
    ADD_FAILURE() << describe(cfg) << " was accepted; expected a refusal naming '" << parameter
                  << "'";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + parameter + "'"), std::string::npos)
        << "message does not name '" << parameter << "': " << e.what();
  }
}

TEST(LcsWavefrontParams, RefusesInvalidConfigurationsByName) {
  for (int block : {0, 16, 33, 48, 1000, 1056, 2048}) {
    expect_refused(tile(16, 512, block), "block");
    expect_refused(cell(block), "block");
  }
  for (int r : {0, 1, 2, 3, 5, 12, 24, 64}) expect_refused(tile(r, 512, 128), "rows_per_thread");
  for (int tw : {0, 16, 31, 33, 48, 100, 65537, 65568, 131072})
    expect_refused(tile(16, tw, 128), "tile_width");
  // Valid ones pass; cell mode ignores the tile parameters.
  for (int block : {32, 64, 96, 128, 1024}) {
    EXPECT_NO_THROW(dpgpu::wavefront::validate(tile(4, 32, block)));
    EXPECT_NO_THROW(dpgpu::wavefront::validate(cell(block)));
  }
  EXPECT_NO_THROW(dpgpu::wavefront::validate(tile(32, 65536, 128)));
  LcsWavefrontConfig c = cell(128);
  c.rows_per_thread = 12;
  c.tile_width = 48;
  EXPECT_NO_THROW(dpgpu::wavefront::validate(c)) << "cell mode should ignore the tile parameters";
}

TEST(LcsWavefrontParams, RegisteredWithSchema) {
  const auto* e = dpgpu::Registry::get().solver("lcs", "gpu.wavefront");
  ASSERT_NE(e, nullptr) << "gpu.wavefront is not registered for lcs";
  EXPECT_EQ(e->backend, dpgpu::Backend::Gpu);
  EXPECT_TRUE(e->memory);
#if DPGPU_WITH_CUDA
  EXPECT_TRUE(e->solve);
  EXPECT_EQ(e->unavailable, "");
#else
  EXPECT_EQ(e->unavailable, "dpgpu was built without CUDA");
#endif
  const dpgpu::Params d = e->schema.resolve({});
  EXPECT_EQ(d.text("mode"), "tile");
  EXPECT_EQ(d.integer("block"), 64);
  EXPECT_EQ(d.integer("rows_per_thread"), 16);
  EXPECT_EQ(d.integer("tile_width"), 256);
  EXPECT_EQ(d.text("readonly"), "ldg");
  EXPECT_FALSE(d.flag("reconstruct"));
  EXPECT_TRUE(d.flag("offload"));
  EXPECT_EQ(d.integer("offload_slots"), 8);
  // Out of the schema's ranges or of the wrong type: refused naming the key.
  const std::vector<std::pair<std::string, dpgpu::ValueMap>> bad = {
      {"block", {{"block", std::int64_t{2048}}}},
      {"block", {{"block", std::int64_t{16}}}},
      {"block", {{"block", 1.5}}},
      {"mode", {{"mode", std::string("diagonal")}}},
      {"rows_per_thread", {{"rows_per_thread", std::int64_t{64}}}},
      {"rows_per_thread", {{"rows_per_thread", std::string("16")}}},
      {"tile_width", {{"tile_width", std::int64_t{16}}}},
      {"tile_width", {{"tile_width", std::int64_t{1} << 20}}},
      {"tiles", {{"tiles", std::int64_t{4}}}},
      {"readonly", {{"readonly", std::string("shared")}}},
      {"reconstruct", {{"reconstruct", std::int64_t{1}}}},
      {"offload_slots", {{"offload_slots", std::int64_t{1}}}},
      {"offload_slots", {{"offload_slots", std::int64_t{4096}}}},
      // Rules beyond the ranges (validate()'s), refused when resolved, so by `dpgpu check`.
      {"block", {{"block", std::int64_t{48}}}},
      {"rows_per_thread", {{"rows_per_thread", std::int64_t{5}}}},
      {"tile_width", {{"tile_width", std::int64_t{100}}}},
  };
  for (const auto& [key, given] : bad) {
    try {
      e->schema.resolve(given);
      ADD_FAILURE() << "accepted a bad '" << key << "'";
    } catch (const dpgpu::InputError& err) {
      EXPECT_NE(std::string(err.what()).find("'" + key + "'"), std::string::npos) << err.what();
    }
  }
  // Tile-only rules do not bind cell mode.
  EXPECT_NO_THROW(
      e->schema.resolve({{"mode", std::string("cell")}, {"rows_per_thread", std::int64_t{5}}}));
  // The length limit of 32-bit device indices, for the planner.
  EXPECT_EQ(e->check(d, {{"n", std::int64_t{1000}}, {"m", std::int64_t{300}}}), std::nullopt);
  EXPECT_TRUE(e->check(d, {{"n", std::int64_t{1} << 30}, {"m", std::int64_t{1} << 30}}));
  // The memory estimate is what the geometry allocates, and nothing for empty strings.
  dpgpu::AnyInstance x;
  x.data = std::make_shared<const lcs::Instance>(
      lcs::Instance{std::string(1000, 'a'), std::string(300, 'b')});
  const auto need = e->memory(x, d);
  EXPECT_EQ(need.device, dpgpu::wavefront::device_bytes(1000, 300, LcsWavefrontConfig{}));
  // 1000 rows → 1024 (TH 512), 300 columns → two tiles of 256 = 512: strings 2 B, H_row/V_col 4 B,
  // 2 corners.
  EXPECT_EQ(need.device, std::uint64_t((1024 + 512) * 2 + (1024 + 512) * 4 + 2 * 4));
  x.data = std::make_shared<const lcs::Instance>(lcs::Instance{"", "abc"});
  EXPECT_EQ(e->memory(x, d).device, 0u);
}

// With reconstruct, .memory() counts the decision bits: on the host always (the array the
// traceback reads, plus the pinned ring when offloading), on the device two chunks when
// offloading, all of them otherwise.
TEST(LcsWavefrontParams, MemoryWithReconstruct) {
  using namespace dpgpu::wavefront;
  const auto* e = dpgpu::Registry::get().solver("lcs", "gpu.wavefront");
  ASSERT_NE(e, nullptr);
  dpgpu::AnyInstance x;
  x.data = std::make_shared<const lcs::Instance>(
      lcs::Instance{std::string(5000, 'a'), std::string(3000, 'b')});
  for (const char* mode : {"tile", "cell"}) {
    for (bool offload : {true, false}) {
      const dpgpu::Params p = e->schema.resolve({{"mode", std::string(mode)},
                                                 {"reconstruct", true},
                                                 {"offload", offload},
                                                 {"offload_slots", std::int64_t{3}}});
      LcsWavefrontConfig c;
      c.mode = std::string(mode) == "tile" ? LcsMode::Tile : LcsMode::Cell;
      c.reconstruct = true;
      c.offload = offload;
      c.offload_slots = 3;
      LcsWavefrontConfig plain = c;
      plain.reconstruct = false;
      const BitsLayout b = bits_layout(5000, 3000, c);
      // At least one bit per cell, at most the padded tiles' (tile) or a warp's rounding (cell).
      EXPECT_GE(b.total_bytes() * 8, std::uint64_t(5000) * 3000);
      const auto need = e->memory(x, p);
      EXPECT_EQ(need.device,
                device_bytes(5000, 3000, plain) +
                    (offload ? kDeviceBitBuffers * b.chunk_bytes_max() : b.total_bytes()))
          << mode << " offload=" << offload;
      EXPECT_EQ(need.host, host_bytes(5000, 3000, plain) + b.total_bytes() +
                               (offload ? 3 * b.chunk_bytes_max() : 0))
          << mode << " offload=" << offload;
    }
  }
  // Tile layout: each diagonal's tiles in a row, TW·R words each, all tiles in all.
  const LcsWavefrontConfig c;
  const TileGeometry g = tile_geometry(5000, 3000, c);
  const BitsLayout b = tile_bits_layout(g, c.block);
  EXPECT_EQ(b.total_words(), g.tile_rows * g.tile_cols * g.tile_width * g.rows_per_thread);
  EXPECT_EQ(b.chunk_words_max, g.widest_diagonal() * g.tile_width * g.rows_per_thread);
  // 1 bit per padded cell.
  EXPECT_EQ(b.total_bytes() * 8, std::uint64_t(g.padded_rows * g.padded_cols));
}

TEST(LcsWavefrontParams, OffloadSlotsAndReadOnly) {
  using namespace dpgpu::wavefront;
  LcsWavefrontConfig c;
  c.reconstruct = true;
  c.offload_slots = 1;
  expect_refused(c, "offload_slots");
  c.offload = false;  // the ring is not used: slots do not matter
  EXPECT_NO_THROW(validate(c));
  EXPECT_EQ(readonly_from("texture"), LcsReadOnly::Texture);
  EXPECT_EQ(readonly_from("plain"), LcsReadOnly::Plain);
  EXPECT_EQ(readonly_from("ldg"), LcsReadOnly::Ldg);
  EXPECT_THROW(readonly_from("surface"), dpgpu::InputError);
}

TEST(LcsWavefrontParams, TileGeometry) {
  using dpgpu::wavefront::tile_geometry;
  auto g = tile_geometry(65536, 65536, LcsWavefrontConfig{});
  EXPECT_EQ(g.tile_height, 512);
  EXPECT_EQ(g.tile_width, 256);  // the defaults R16, TW256
  EXPECT_EQ(g.tile_rows, 128);
  EXPECT_EQ(g.tile_cols, 256);
  EXPECT_EQ(g.diagonals(), 383);
  EXPECT_FALSE(g.swapped);
  g = tile_geometry(5, 3000, LcsWavefrontConfig{});  // rows = the longer string
  EXPECT_TRUE(g.swapped);
  EXPECT_EQ(g.padded_rows, 3072);
  EXPECT_EQ(g.tile_width, 32);
  EXPECT_EQ(g.padded_cols, 32);
  g = tile_geometry(3000, 5, LcsWavefrontConfig{});
  EXPECT_FALSE(g.swapped);
  EXPECT_EQ(g.padded_rows, 3072);
  EXPECT_EQ(g.padded_cols, 32);
  g = tile_geometry(1000, 1000, tile(4, 96, 128));
  EXPECT_EQ(g.padded_rows, 1024);
  EXPECT_EQ(g.padded_cols, 1056);  // 11 tiles of 96
}

}  // namespace
