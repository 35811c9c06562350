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
    ADD_FAILURE() << describe(cfg) << " was accepted; expected a refusal naming '" << parameter << "'";
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
  for (int tw : {0, 16, 31, 33, 48, 100, 65537, 65568, 131072}) expect_refused(tile(16, tw, 128), "tile_width");
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
  };
  for (const auto& [key, given] : bad) {
    try {
      e->schema.resolve(given);
      ADD_FAILURE() << "accepted a bad '" << key << "'";
    } catch (const dpgpu::InputError& err) {
      EXPECT_NE(std::string(err.what()).find("'" + key + "'"), std::string::npos) << err.what();
    }
  }
  // The memory estimate is what the geometry allocates, and nothing for empty strings.
  dpgpu::AnyInstance x;
  x.data = std::make_shared<const lcs::Instance>(lcs::Instance{std::string(1000, 'a'), std::string(300, 'b')});
  const auto need = e->memory(x, d);
  EXPECT_EQ(need.device, dpgpu::wavefront::device_bytes(1000, 300, LcsWavefrontConfig{}));
  // 1000 rows → 1024 (TH 512), 300 columns → tile width 320: strings 2 B, H_row/V_col 4 B, 2 corners.
  EXPECT_EQ(need.device, std::uint64_t((1024 + 320) * 2 + (1024 + 320) * 4 + 2 * 4));
  x.data = std::make_shared<const lcs::Instance>(lcs::Instance{"", "abc"});
  EXPECT_EQ(e->memory(x, d).device, 0u);
}

TEST(LcsWavefrontParams, TileGeometry) {
  using dpgpu::wavefront::tile_geometry;
  auto g = tile_geometry(65536, 65536, LcsWavefrontConfig{});
  EXPECT_EQ(g.tile_height, 512);
  EXPECT_EQ(g.tile_width, 512);
  EXPECT_EQ(g.tile_rows, 128);
  EXPECT_EQ(g.tile_cols, 128);
  EXPECT_EQ(g.diagonals(), 255);
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
