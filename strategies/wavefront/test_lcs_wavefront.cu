// test_lcs_wavefront.cu — gpu.wavefront (LCS length) against a CPU two-row reference on
// random strings, in every mode, every rows_per_thread, several tile widths and blocks.
//
// Strings are random with a fresh seed per run, printed with every failure; rerun one with
//   DPGPU_TEST_SEED=<seed> ./test_lcs_wavefront
// Skipped (not passed) without a device. The parameter checks, which need no GPU, are in
// test_lcs_wavefront_params.cpp; the kernels' logic without a GPU in test_lcs_kernels_on_cpu.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "device_buffer.cuh"
#include "require_device.hpp"
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "dpgpu/test_seed.hpp"
#include "lcs/lcs.hpp"
#include "lcs_config.hpp"
#include "lcs_geometry.hpp"
#include "lcs_wavefront.hpp"
#include "test_lcs_reference.hpp"

namespace dpgpu::wavefront {
// gtest prints parameters with this (ADL): "mode=tile block=128 rows_per_thread=16 ...".
void PrintTo(const LcsWavefrontConfig& c, std::ostream* os);
}  // namespace dpgpu::wavefront

namespace {

using dpgpu::wavefront::LcsMode;
using dpgpu::wavefront::LcsWavefrontConfig;
using dpgpu::wavefront::test::check_boundaries;
using dpgpu::wavefront::test::Expected;
using dpgpu::wavefront::test::lcs_reference;
using dpgpu::wavefront::test::reference;

// ---------------------------------------------------------------------------- inputs

using dpgpu::base_seed;  // $DPGPU_TEST_SEED or fresh (dpgpu/test_seed.hpp)

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Named symbol sets. Single-symbol alphabets of 0x00 and 0xFF, and {0x00, 0xFF}, check that
// padding and guard symbols never match a real byte.
struct Alphabet {
  const char* name;
  std::string symbols;
};
const std::vector<Alphabet>& alphabets() {
  static const std::vector<Alphabet> all = [] {
    std::string bytes;
    for (int c = 0; c < 256; ++c) bytes.push_back(char(c));
    return std::vector<Alphabet>{{"1{00}", std::string(1, '\0')},
                                 {"1{ff}", std::string(1, '\xff')},
                                 {"2{00,ff}", std::string("\x00\xff", 2)},
                                 {"4{ACGT}", "ACGT"},
                                 {"256{all bytes}", bytes}};
  }();
  return all;
}

enum class Kind { Independent, Related, Equal };
const char* to_string(Kind k) {
  return k == Kind::Independent ? "independent"
         : k == Kind::Related   ? "related (b = a with ~10% edits)"
                                : "equal";
}

struct Case {
  std::string a, b;
  std::string label;  // sizes, alphabet, kind, seed
};

// A random pair: |a| = n, |b| = m. Related pairs share most of their symbols in order, so
// the match branch and long diagonals of equal values are exercised, not just max().
Case make_case(std::int64_t n, std::int64_t m, const Alphabet& alpha, Kind kind,
               std::uint64_t salt) {
  const std::uint64_t seed = mix(base_seed() ^ mix(salt));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, alpha.symbols.size() - 1);
  auto random_string = [&](std::int64_t len) {
    std::string s(std::size_t(len), '\0');
    for (auto& ch : s) ch = alpha.symbols[pick(rng)];
    return s;
  };
  Case c;
  c.a = random_string(n);
  std::string b;
  if (kind == Kind::Related) {
    std::uniform_int_distribution<int> pct(0, 99);
    for (char ch : c.a) {
      const int p = pct(rng);
      if (p < 4) continue;                                            // delete
      if (p < 7) b.push_back(alpha.symbols[pick(rng)]);               // insert before
      b.push_back(p >= 7 && p < 10 ? alpha.symbols[pick(rng)] : ch);  // substitute, else keep
    }
  } else if (kind == Kind::Equal) {
    b = c.a;  // LCS = min(n, m): one is a prefix of the other
  }
  if (std::int64_t(b.size()) > m) b.resize(std::size_t(m));
  b += random_string(m - std::int64_t(b.size()));
  c.b = std::move(b);
  std::ostringstream os;
  os << "|a|=" << n << " |b|=" << m << " alphabet=" << alpha.name << " " << to_string(kind)
     << " (DPGPU_TEST_SEED=" << base_seed() << " salt=" << salt << ")";
  c.label = os.str();
  return c;
}

std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : s) {
    out.push_back(d[ch >> 4]);
    out.push_back(d[ch & 15]);
  }
  return out;
}

// ---------------------------------------------------------------------------- configurations

std::string describe(const LcsWavefrontConfig& c) {
  std::ostringstream os;
  os << "mode=" << dpgpu::wavefront::to_string(c.mode) << " block=" << c.block;
  if (c.mode == LcsMode::Tile)
    os << " rows_per_thread=" << c.rows_per_thread << " tile_width=" << c.tile_width;
  if (c.readonly != dpgpu::wavefront::LcsReadOnly::Ldg)
    os << " readonly=" << dpgpu::wavefront::to_string(c.readonly);
  if (c.reconstruct)
    os << " reconstruct offload=" << (c.offload ? "true" : "false")
       << " offload_slots=" << c.offload_slots;
  return os.str();
}

}  // namespace
void dpgpu::wavefront::PrintTo(const LcsWavefrontConfig& c, std::ostream* os) {
  *os << describe(c);
}
namespace {

std::string geometry(const Case& c, const LcsWavefrontConfig& cfg) {
  if (cfg.mode != LcsMode::Tile || c.a.empty() || c.b.empty()) return "";
  const auto g =
      dpgpu::wavefront::tile_geometry(std::int64_t(c.a.size()), std::int64_t(c.b.size()), cfg);
  std::ostringstream os;
  os << " [tile " << g.tile_height << "x" << g.tile_width << ", " << g.tile_rows << "x"
     << g.tile_cols << " tiles, " << g.diagonals() << " diagonals"
     << (g.swapped ? ", rows = b" : "") << "]";
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

dpgpu::Context::Clock::time_point an_hour() {
  return std::chrono::steady_clock::now() + std::chrono::hours(1);
}

// Runs one solve in its own Context; a failure says what ran on what. Tile mode also checks
// its final boundaries (the bottom row and right column of the whole table), which catches
// wrong cells that the final length alone can hide. Returns false on any disagreement.
bool check_one(const Case& c, const Expected& expected, const LcsWavefrontConfig& cfg,
               std::map<std::string, double>* counters = nullptr) {
  std::int64_t got = -1;
  std::string error;
  dpgpu::wavefront::LcsTileBoundaries boundaries;
  const bool tile_mode = cfg.mode == LcsMode::Tile && !c.a.empty() && !c.b.empty();
  std::optional<std::string> certificate;
  try {
    dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
    ctx.begin();
    auto r = dpgpu::wavefront::lcs_wavefront(c.a, c.b, cfg, ctx, tile_mode ? &boundaries : nullptr);
    ctx.end();
    got = r.length;
    certificate = std::move(r.subsequence);
    if (counters) *counters = ctx.counters();
  } catch (const std::exception& e) {
    error = e.what();
  }
  std::string strings;
  if (c.a.size() + c.b.size() <= 96) strings = "\n  a=" + hex(c.a) + "\n  b=" + hex(c.b);
  if (!error.empty()) {
    ADD_FAILURE() << describe(cfg) << " on " << c.label << geometry(c, cfg) << " threw: " << error
                  << strings;
    return false;
  }
  std::string wrong;
  if (got != expected.length)
    wrong = "LCS length " + std::to_string(got) + ", CPU reference " +
            std::to_string(expected.length) + "; ";
  if (tile_mode)
    wrong += check_boundaries(
        boundaries, expected,
        dpgpu::wavefront::tile_geometry(std::int64_t(c.a.size()), std::int64_t(c.b.size()), cfg));
  // Reconstruct: the certificate, rechecked by the problem's own check (as the harness does).
  if (cfg.reconstruct && !certificate) wrong += "no certificate with reconstruct; ";
  if (!cfg.reconstruct && certificate) wrong += "a certificate without reconstruct; ";
  if (certificate) {
    const dpgpu::Verdict v =
        lcs::Problem::check(lcs::Instance{c.a, c.b}, lcs::Solution{*certificate});
    if (!v.ok)
      wrong += "certificate rejected: " + v.message + "; ";
    else if (v.objective != expected.length)
      wrong += "certificate of length " + std::to_string(v.objective) + ", LCS is " +
               std::to_string(expected.length) + "; ";
  }
  if (!wrong.empty()) {
    ADD_FAILURE() << describe(cfg) << " on " << c.label << geometry(c, cfg) << ": " << wrong
                  << strings;
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------- GPU fixture

class LcsWavefrontGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    static bool printed = false;
    if (!printed) {
      std::printf("[   SEED   ] DPGPU_TEST_SEED=%llu\n",
                  static_cast<unsigned long long>(base_seed()));
      printed = true;
    }
  }
};

class LcsWavefrontSizes : public ::testing::TestWithParam<LcsWavefrontConfig> {
 protected:
  void SetUp() override { REQUIRE_DEVICE(); }
};

// Sizes around every boundary the configuration has: 0, 1, the warp, the block, the tile
// height and width (±1), non-multiples of all of them, and very unequal lengths both ways.
std::vector<std::pair<std::int64_t, std::int64_t>> sizes_for(const LcsWavefrontConfig& cfg) {
  const std::int64_t th = cfg.mode == LcsMode::Tile ? 32 * cfg.rows_per_thread : cfg.block;
  const std::int64_t tw = cfg.mode == LcsMode::Tile ? cfg.tile_width : cfg.block;
  const std::int64_t bl = cfg.block;
  return {{0, 0},
          {0, 7},
          {7, 0},
          {1, 1},
          {1, 9},
          {9, 1},
          {31, 33},
          {32, 32},
          {33, 31},
          {bl - 1, bl + 1},
          {bl + 1, bl - 1},
          {th - 1, th + 1},
          {th + 1, th - 1},
          {th, tw},
          {tw - 1, tw + 1},
          {tw + 1, tw - 1},
          {2 * th + 3, tw + 5},
          {tw + 5, 2 * th + 3},
          {3 * th + 17, 2 * tw + 11},
          {5, 3000},
          {3000, 5},
          {1000, 777},
          {777, 1000}};
}

TEST_P(LcsWavefrontSizes, MatchesCpuReference) {
  const LcsWavefrontConfig cfg = GetParam();
  SCOPED_TRACE(describe(cfg));
  int failures = 0, index = 0;
  for (auto [n, m] : sizes_for(cfg)) {
    for (Kind kind : {Kind::Independent, Kind::Related}) {
      const auto& alpha = alphabets()[std::size_t(index) % alphabets().size()];
      const Case c = make_case(n, m, alpha, kind,
                               std::uint64_t(index) * 7919 + std::uint64_t(cfg.block) * 31 +
                                   std::uint64_t(cfg.rows_per_thread) * 131 +
                                   std::uint64_t(cfg.tile_width) + (cfg.mode == LcsMode::Cell));
      ++index;
      if (!check_one(c, reference(c.a, c.b), cfg) && ++failures >= 6) {
        ADD_FAILURE() << "stopping this configuration after 6 failures";
        return;
      }
    }
  }
}

std::vector<LcsWavefrontConfig> all_configs() {
  std::vector<LcsWavefrontConfig> out;
  for (int r : {4, 8, 16, 32})
    for (int tw : {32, 96, 512})
      for (int block : {32, 128}) out.push_back(tile(r, tw, block));
  out.push_back(tile(16, 1024, 96));
  out.push_back(tile(4, 64, 1024));
  out.push_back(tile(8, 160, 64));
  out.push_back(tile(32, 2048, 256));
  out.push_back(LcsWavefrontConfig{});  // the defaults
  for (int block : {32, 96, 128, 256, 1024}) out.push_back(cell(block));
  return out;
}

INSTANTIATE_TEST_SUITE_P(Configs, LcsWavefrontSizes, ::testing::ValuesIn(all_configs()),
                         [](const ::testing::TestParamInfo<LcsWavefrontConfig>& info) {
                           const auto& c = info.param;
                           std::string s = std::to_string(info.index) + "_" +
                                           dpgpu::wavefront::to_string(c.mode) + "_block" +
                                           std::to_string(c.block);
                           if (c.mode == LcsMode::Tile)
                             s += "_R" + std::to_string(c.rows_per_thread) + "_TW" +
                                  std::to_string(c.tile_width);
                           return s;
                         });

// Every alphabet, equal strings (LCS = n) and related ones, in both modes.
TEST_F(LcsWavefrontGpu, EveryAlphabetAndEqualStrings) {
  int index = 0;
  for (const auto& cfg : {LcsWavefrontConfig{}, tile(4, 32, 64), cell(128)}) {
    for (const auto& alpha : alphabets()) {
      for (auto [n, m] : std::vector<std::pair<std::int64_t, std::int64_t>>{
               {1, 1}, {300, 200}, {1025, 513}, {2049, 2049}}) {
        for (Kind kind : {Kind::Independent, Kind::Related, Kind::Equal}) {
          const Case c = make_case(n, m, alpha, kind, 1'000'000 + std::uint64_t(index++));
          const Expected expected = reference(c.a, c.b);
          if (kind == Kind::Equal)
            EXPECT_EQ(expected.length, std::min(n, m)) << "reference broken on " << c.label;
          check_one(c, expected, cfg);
        }
      }
    }
  }
}

// The largest size the test budget allows, in several shapes of tile and in cell mode.
TEST_F(LcsWavefrontGpu, LargeInstance) {
  for (Kind kind : {Kind::Independent, Kind::Related}) {
    const Case c = make_case(20000, 17000, alphabets()[3], kind, 2'000'000 + std::uint64_t(kind));
    const Expected expected = reference(c.a, c.b);
    for (const auto& cfg :
         {LcsWavefrontConfig{}, tile(4, 128, 256), tile(32, 64, 128), tile(8, 4096, 32), cell(256)})
      check_one(c, expected, cfg);
  }
}

// Counters, phases and the memory estimate agree with what the solve did.
TEST_F(LcsWavefrontGpu, CountersPhasesAndMemory) {
  const Case c = make_case(3000, 1100, alphabets()[3], Kind::Independent, 3'000'000);
  const std::int64_t expected = lcs_reference(c.a, c.b);
  for (const auto& cfg : {LcsWavefrontConfig{}, tile(8, 96, 64), cell(128)}) {
    SCOPED_TRACE(describe(cfg));
    dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
    ctx.begin();
    const std::int64_t got = dpgpu::wavefront::lcs_wavefront_length(c.a, c.b, cfg, ctx);
    ctx.end();
    EXPECT_EQ(got, expected);
    const auto& k = ctx.counters();
    ASSERT_TRUE(k.count("kernel_launches") && k.count("diagonals") && k.count("peak_device_bytes"));
    const std::int64_t diagonals =
        cfg.mode == LcsMode::Tile ? dpgpu::wavefront::tile_geometry(3000, 1100, cfg).diagonals()
                                  : 3000 + 1100 - 1;
    EXPECT_EQ(k.at("kernel_launches"), double(diagonals));
    EXPECT_EQ(k.at("diagonals"), double(diagonals));
    EXPECT_EQ(k.at("peak_device_bytes"), double(dpgpu::wavefront::device_bytes(3000, 1100, cfg)))
        << "memory estimate differs from what the solve allocated";
    const auto phases = ctx.phase_seconds();
    for (const char* p : {"alloc", "h2d", "compute", "d2h"}) {
      ASSERT_TRUE(phases.count(p)) << "phase " << p << " missing";
      EXPECT_GE(phases.at(p), 0.0);
    }
  }
  // Empty strings: nothing launched, nothing allocated.
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  ctx.begin();
  EXPECT_EQ(dpgpu::wavefront::lcs_wavefront_length("", "abc", LcsWavefrontConfig{}, ctx), 0);
  ctx.end();
  EXPECT_EQ(ctx.counters().at("kernel_launches"), 0.0);
  EXPECT_EQ(ctx.counters().at("peak_device_bytes"), 0.0);
}

// Through the registry, as the harness calls it: schema defaults, then solve.
TEST_F(LcsWavefrontGpu, SolveThroughRegistry) {
  const auto* e = dpgpu::Registry::get().solver("lcs", "gpu.wavefront");
  ASSERT_NE(e, nullptr) << "gpu.wavefront is not registered for lcs";
  ASSERT_TRUE(e->unavailable.empty()) << e->unavailable;
  const Case c = make_case(1234, 987, alphabets()[3], Kind::Related, 4'000'000);
  const std::int64_t expected = lcs_reference(c.a, c.b);
  dpgpu::AnyInstance x;
  x.name = "test";
  x.data = std::make_shared<const lcs::Instance>(lcs::Instance{c.a, c.b});
  for (const dpgpu::ValueMap& given :
       {dpgpu::ValueMap{},
        dpgpu::ValueMap{{"mode", std::string("cell")}, {"block", std::int64_t{64}}},
        dpgpu::ValueMap{{"rows_per_thread", std::int64_t{8}}, {"tile_width", std::int64_t{256}}}}) {
    const dpgpu::Params p = e->schema.resolve(given);
    dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
    ctx.begin();
    const dpgpu::AnyOutcome out = e->solve(x, p, ctx);
    ctx.end();
    EXPECT_EQ(out.objective, expected) << c.label;
    EXPECT_FALSE(out.solution) << "length only: no certificate expected";
  }
  // A combination the schema's ranges allow but the solver does not: refused by name.
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  ctx.begin();
  try {
    e->solve(x, e->schema.resolve({{"block", std::int64_t{48}}}), ctx);
    ADD_FAILURE() << "block=48 was accepted";
  } catch (const dpgpu::InputError& err) {
    EXPECT_NE(std::string(err.what()).find("'block'"), std::string::npos) << err.what();
  }
  ctx.end();
}

// The register-hungriest kernel with the largest block: runs, or is refused naming 'block'.
TEST_F(LcsWavefrontGpu, LargestBlockRunsOrIsRefusedByName) {
  const Case c = make_case(2100, 1500, alphabets()[3], Kind::Independent, 5'000'000);
  const std::int64_t expected = lcs_reference(c.a, c.b);
  for (int r : {4, 8, 16, 32}) {
    const auto cfg = tile(r, 64, 1024);
    dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
    ctx.begin();
    try {
      EXPECT_EQ(dpgpu::wavefront::lcs_wavefront_length(c.a, c.b, cfg, ctx), expected)
          << describe(cfg);
    } catch (const dpgpu::InputError& err) {
      EXPECT_NE(std::string(err.what()).find("'block'"), std::string::npos) << err.what();
      std::printf("[   NOTE   ] %s refused: %s\n", describe(cfg).c_str(), err.what());
    }
    ctx.end();
  }
}

// ---------------------------------------------------------------------------- reconstruct

// Every configuration again with reconstruct, on the same edge sizes: the certificate must be
// a common subsequence of the reference length. Offload on and off alternate, and every third
// configuration runs with a two-slot ring, so the host drains it while copies are in flight.
class LcsWavefrontReconstruct : public LcsWavefrontSizes {};

TEST_P(LcsWavefrontReconstruct, CertificateMatchesCpuReference) {
  const LcsWavefrontConfig cfg = GetParam();
  SCOPED_TRACE(describe(cfg));
  int failures = 0, index = 0;
  for (auto [n, m] : sizes_for(cfg)) {
    for (Kind kind : {Kind::Independent, Kind::Related}) {
      const auto& alpha = alphabets()[std::size_t(index + 2) % alphabets().size()];
      const Case c =
          make_case(n, m, alpha, kind,
                    6'000'000 + std::uint64_t(index) * 7919 + std::uint64_t(cfg.block) * 31 +
                        std::uint64_t(cfg.rows_per_thread) * 131 + std::uint64_t(cfg.tile_width) +
                        (cfg.mode == LcsMode::Cell));
      ++index;
      if (!check_one(c, reference(c.a, c.b), cfg) && ++failures >= 6) {
        ADD_FAILURE() << "stopping this configuration after 6 failures";
        return;
      }
    }
  }
}

std::vector<LcsWavefrontConfig> reconstruct_configs() {
  std::vector<LcsWavefrontConfig> out = all_configs();
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k].reconstruct = true;
    out[k].offload = k % 2 == 0;
    out[k].offload_slots = k % 3 == 0 ? 2 : 8;
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Configs, LcsWavefrontReconstruct, ::testing::ValuesIn(reconstruct_configs()),
    [](const ::testing::TestParamInfo<LcsWavefrontConfig>& info) {
      const auto& c = info.param;
      std::string s = std::to_string(info.index) + "_" + dpgpu::wavefront::to_string(c.mode) +
                      "_block" + std::to_string(c.block);
      if (c.mode == LcsMode::Tile)
        s += "_R" + std::to_string(c.rows_per_thread) + "_TW" + std::to_string(c.tile_width);
      s += c.offload ? "_offload" + std::to_string(c.offload_slots) : "_ondevice";
      return s;
    });

LcsWavefrontConfig with_bits(LcsWavefrontConfig c, bool offload, int slots = 8) {
  c.reconstruct = true;
  c.offload = offload;
  c.offload_slots = slots;
  return c;
}

// A two-slot ring over many chunks: it wraps around many times, every chunk arrives (the
// certificate would be wrong otherwise), and the counters say so.
TEST_F(LcsWavefrontGpu, OffloadRingWrapsAround) {
  const Case c = make_case(3000, 2500, alphabets()[3], Kind::Related, 7'000'000);
  const Expected expected = reference(c.a, c.b);
  for (const auto& cfg :
       {with_bits(tile(4, 32, 64), true, 2), with_bits(LcsWavefrontConfig{}, true, 2),
        with_bits(cell(64), true, 2), with_bits(tile(8, 64, 32), true, 3)}) {
    SCOPED_TRACE(describe(cfg));
    std::map<std::string, double> k;
    if (!check_one(c, expected, cfg, &k)) continue;
    const auto layout = dpgpu::wavefront::bits_layout(3000, 2500, cfg);
    const double chunks = cfg.mode == LcsMode::Tile
                              ? double(dpgpu::wavefront::tile_geometry(3000, 2500, cfg).diagonals())
                              : double((3000 + 2500 - 1 + dpgpu::wavefront::kCellBatch - 1) /
                                       dpgpu::wavefront::kCellBatch);
    ASSERT_TRUE(k.count("offload_chunks") && k.count("bytes_offloaded") &&
                k.count("offload_host_waits") && k.count("offload_wait_s") &&
                k.count("decision_bits_bytes"));
    EXPECT_EQ(k.at("offload_chunks"), chunks);
    EXPECT_GT(k.at("offload_chunks"), double(cfg.offload_slots)) << "the ring did not wrap around";
    EXPECT_EQ(k.at("bytes_offloaded"), double(layout.total_bytes()));
    EXPECT_EQ(k.at("decision_bits_bytes"), double(layout.total_bytes()));
    EXPECT_GE(k.at("offload_wait_s"), 0.0);
    std::printf("[   NOTE   ] %s: %.0f chunks through %d slots, %.0f host waits, %.3f ms waited\n",
                describe(cfg).c_str(), k.at("offload_chunks"), cfg.offload_slots,
                k.at("offload_host_waits"), 1e3 * k.at("offload_wait_s"));
  }
}

// offload = false keeps every bit on the device and copies once; same certificate, nothing
// offloaded, and the device peak is what .memory() says.
TEST_F(LcsWavefrontGpu, ReconstructWithoutOffload) {
  const Case c = make_case(2100, 1900, alphabets()[4], Kind::Related, 8'000'000);
  const Expected expected = reference(c.a, c.b);
  for (const auto& base : {LcsWavefrontConfig{}, tile(32, 96, 128), cell(128)}) {
    for (bool offload : {false, true}) {
      const auto cfg = with_bits(base, offload);
      SCOPED_TRACE(describe(cfg));
      std::map<std::string, double> k;
      if (!check_one(c, expected, cfg, &k)) continue;
      EXPECT_EQ(k.at("bytes_offloaded"), offload ? k.at("decision_bits_bytes") : 0.0);
      EXPECT_EQ(k.at("peak_device_bytes"), double(dpgpu::wavefront::device_bytes(2100, 1900, cfg)))
          << "memory estimate differs from what the solve allocated";
    }
  }
}

// Every read path reads the same strings: same lengths and boundaries, with and without bits.
TEST_F(LcsWavefrontGpu, EveryReadPathAgrees) {
  using dpgpu::wavefront::LcsReadOnly;
  int index = 0;
  for (auto [n, m] :
       std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {777, 1000}, {4100, 3000}}) {
    const Case c = make_case(n, m, alphabets()[std::size_t(index++) % alphabets().size()],
                             Kind::Related, 9'000'000 + std::uint64_t(index));
    const Expected expected = reference(c.a, c.b);
    for (LcsReadOnly path : {LcsReadOnly::Ldg, LcsReadOnly::Plain, LcsReadOnly::Texture}) {
      for (auto cfg : {LcsWavefrontConfig{}, tile(4, 32, 32), tile(32, 64, 64), cell(96),
                       with_bits(tile(8, 96, 64), true), with_bits(cell(64), true)}) {
        cfg.readonly = path;
        check_one(c, expected, cfg);
      }
    }
  }
}

// The largest size the test budget allows, with reconstruct (0.34 · 10^9 cells, 42 MB of bits).
TEST_F(LcsWavefrontGpu, LargeReconstruct) {
  for (Kind kind : {Kind::Independent, Kind::Related}) {
    const Case c = make_case(20000, 17000, alphabets()[3], kind, 10'000'000 + std::uint64_t(kind));
    const Expected expected = reference(c.a, c.b);
    for (const auto& cfg :
         {with_bits(LcsWavefrontConfig{}, true), with_bits(tile(4, 128, 256), false),
          with_bits(tile(32, 64, 128), true, 2), with_bits(cell(256), true)})
      check_one(c, expected, cfg);
  }
}

// Through the registry with reconstruct: the outcome carries the certificate, which the
// problem's registered check accepts.
TEST_F(LcsWavefrontGpu, ReconstructThroughRegistry) {
  const auto* e = dpgpu::Registry::get().solver("lcs", "gpu.wavefront");
  ASSERT_NE(e, nullptr);
  ASSERT_TRUE(e->unavailable.empty()) << e->unavailable;
  const auto* problem = dpgpu::Registry::get().problem("lcs");
  ASSERT_NE(problem, nullptr);
  const Case c = make_case(1500, 1234, alphabets()[3], Kind::Related, 11'000'000);
  const std::int64_t expected = lcs_reference(c.a, c.b);
  dpgpu::AnyInstance x;
  x.name = "test";
  x.data = std::make_shared<const lcs::Instance>(lcs::Instance{c.a, c.b});
  for (const dpgpu::ValueMap& given :
       {dpgpu::ValueMap{{"reconstruct", true}},
        dpgpu::ValueMap{
            {"reconstruct", true}, {"offload", false}, {"readonly", std::string("texture")}},
        dpgpu::ValueMap{{"reconstruct", true},
                        {"mode", std::string("cell")},
                        {"offload_slots", std::int64_t{2}}}}) {
    const dpgpu::Params p = e->schema.resolve(given);
    dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
    ctx.begin();
    const dpgpu::AnyOutcome out = e->solve(x, p, ctx);
    ctx.end();
    EXPECT_EQ(out.objective, expected) << c.label;
    ASSERT_TRUE(out.solution) << "reconstruct: certificate expected";
    const auto verdict = problem->check(x, out);
    ASSERT_TRUE(verdict.has_value());
    EXPECT_TRUE(verdict->ok) << verdict->message;
    EXPECT_EQ(verdict->objective, expected);
  }
}

}  // namespace
