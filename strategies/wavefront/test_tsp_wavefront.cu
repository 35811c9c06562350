// test_tsp_wavefront.cu — gpu.wavefront (Held-Karp by layers) against cpu.held_karp on random
// instances of both generators, n = 1..14 (duplicate points, zero arcs, asymmetric matrices,
// int64 costs), in every read path, with and without offload and reconstruction, with a
// staging ring small enough to wrap around many times per layer; on TSPLIB instances with
// known optima (burma14 and br17 embedded; gr17..fri26 from $DPGPU_SHARED when present); and
// one larger case. Every tour is rechecked by tsp::Problem::check.
//
// Instances are random with a fresh seed per run, printed with every failure; rerun with
//   DPGPU_TEST_SEED=<seed> ./test_tsp_wavefront
// Skipped (not passed) without a device. Parameters and estimates: test_tsp_wavefront_params.cpp.
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"
#include "dpgpu/test_seed.hpp"
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "device_buffer.cuh"
#include "require_device.hpp"
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "tsp/generators.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"
#include "tsp_cpu.hpp"
#include "tsp_wavefront.hpp"

namespace dpgpu::wavefront {
void PrintTo(const TspWavefrontConfig& c, std::ostream* os);
}  // namespace dpgpu::wavefront

namespace {

using dpgpu::wavefront::TspDistances;
using dpgpu::wavefront::TspWavefrontConfig;
using dpgpu::wavefront::TspWavefrontResult;

using dpgpu::base_seed;  // $DPGPU_TEST_SEED or fresh (dpgpu/test_seed.hpp)

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::string describe(const TspWavefrontConfig& c) {
  std::ostringstream os;
  os << "block=" << c.block << " readonly=" << c.readonly
     << " distances=" << dpgpu::wavefront::to_string(c.distances)
     << " offload=" << (c.offload ? "true" : "false")
     << " reconstruct=" << (c.reconstruct ? "true" : "false")
     << " offload_slots=" << c.offload_slots << " offload_slot_bytes=" << c.offload_slot_bytes
     << " waves=" << c.waves;
  return os.str();
}

}  // namespace
void dpgpu::wavefront::PrintTo(const TspWavefrontConfig& c, std::ostream* os) {
  *os << describe(c);
}
namespace {

dpgpu::Context::Clock::time_point an_hour() {
  return std::chrono::steady_clock::now() + std::chrono::hours(1);
}

// The instance kinds of the agreement tests. `side: 3` puts many cities on the same point
// (zero arcs, many ties); `side: 1` puts all of them there (every tour costs 0); the wide
// random matrix needs int64 cells (cost_upper_bound > INT32_MAX).
struct Kind {
  const char* name;
  tsp::Instance (*make)(int n, std::uint64_t seed);
};
const std::vector<Kind>& kinds() {
  static const std::vector<Kind> all = {
      {"euclidean side 1000", [](int n, std::uint64_t s) { return tsp::euclidean(n, 1000, s); }},
      {"euclidean side 3 (duplicate points)",
       [](int n, std::uint64_t s) { return tsp::euclidean(n, 3, s); }},
      {"euclidean side 1 (all points equal)",
       [](int n, std::uint64_t s) { return tsp::euclidean(n, 1, s); }},
      {"random_matrix 1..1000 (asymmetric)",
       [](int n, std::uint64_t s) { return tsp::random_matrix(n, 1, 1000, s); }},
      {"random_matrix 0..3 (asymmetric, ties)",
       [](int n, std::uint64_t s) { return tsp::random_matrix(n, 0, 3, s); }},
      {"random_matrix 0..10^12 (int64 cells)",
       [](int n, std::uint64_t s) { return tsp::random_matrix(n, 0, 1'000'000'000'000, s); }},
  };
  return all;
}

std::string matrix_text(const tsp::Instance& x) {
  if (x.n > 12) return "";
  std::ostringstream os;
  os << "\n  matrix:";
  for (int i = 0; i < x.n; ++i) {
    os << "\n   ";
    for (int j = 0; j < x.n; ++j) os << ' ' << x.arc(i, j);
  }
  return os.str();
}

std::string tour_text(const std::vector<std::int32_t>& t) {
  std::ostringstream os;
  os << "[";
  for (std::size_t i = 0; i < t.size(); ++i) os << (i ? " " : "") << t[i];
  os << "]";
  return os.str();
}

struct GpuRun {
  TspWavefrontResult result;
  std::map<std::string, double> counters, phases;
  std::size_t peak = 0;
};

// One solve in its own Context (its own stream), as the runner does it.
GpuRun solve(const tsp::Instance& x, const TspWavefrontConfig& cfg) {
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  ctx.begin();
  GpuRun r;
  r.result = dpgpu::wavefront::tsp_wavefront(x, cfg, ctx);
  ctx.end();
  r.counters = ctx.counters();
  r.phases = ctx.phase_seconds();
  r.peak = ctx.device_peak();
  return r;
}

// Solves `x` on the GPU and checks cost against `expected`, and the tour (when asked for)
// with tsp::Problem::check. Returns false on any disagreement; the failure names everything.
bool check_one(const tsp::Instance& x, std::int64_t expected, const TspWavefrontConfig& cfg,
               const std::string& label, GpuRun* out = nullptr) {
  GpuRun r;
  try {
    r = solve(x, cfg);
  } catch (const std::exception& e) {
    ADD_FAILURE() << describe(cfg) << " on " << label << " (n=" << x.n << ") threw: " << e.what()
                  << matrix_text(x);
    return false;
  }
  std::string wrong;
  if (r.result.cost != expected)
    wrong +=
        "cost " + std::to_string(r.result.cost) + ", expected " + std::to_string(expected) + "; ";
  if (cfg.reconstruct) {
    const auto v = tsp::Problem::check(x, {r.result.tour});
    if (!v.ok)
      wrong += "tour " + tour_text(r.result.tour) + " rejected: " + v.message + "; ";
    else if (v.objective != r.result.cost)
      wrong += "tour " + tour_text(r.result.tour) + " costs " + std::to_string(v.objective) +
               " but the solver said " + std::to_string(r.result.cost) + "; ";
    if (!r.result.tour.empty() && r.result.tour.front() != 0)
      wrong += "tour does not start at city 0; ";
  } else if (!r.result.tour.empty()) {
    wrong += "reconstruct=false returned a tour " + tour_text(r.result.tour) + "; ";
  }
  const int want_cells = x.n <= 2 ? 0 : tsp::cost_upper_bound(x) <= INT32_MAX ? 4 : 8;
  if (r.result.cell_bytes != want_cells)
    wrong += "cell_bytes " + std::to_string(r.result.cell_bytes) + ", expected " +
             std::to_string(want_cells) + "; ";
  if (!wrong.empty()) {
    ADD_FAILURE() << describe(cfg) << " on " << label << " (n=" << x.n << "): " << wrong
                  << matrix_text(x);
    return false;
  }
  if (out) *out = std::move(r);
  return true;
}

class TspWavefrontGpu : public ::testing::Test {
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

class TspWavefrontConfigs : public ::testing::TestWithParam<TspWavefrontConfig> {
 protected:
  void SetUp() override { REQUIRE_DEVICE(); }
};

// Every n from 1 to `max_n`, every kind, one random instance each: against cpu.held_karp.
void agreement(const TspWavefrontConfig& cfg, int max_n, std::uint64_t salt) {
  int failures = 0;
  for (int n = 1; n <= max_n; ++n)
    for (std::size_t kind = 0; kind < kinds().size(); ++kind) {
      const std::uint64_t seed =
          mix(base_seed() ^ mix(salt * 1000003 + std::uint64_t(n) * 101 + kind));
      const tsp::Instance x = kinds()[kind].make(n, seed);
      const auto expected = tsp::cpu::held_karp(x);
      std::ostringstream label;
      label << kinds()[kind].name << " seed " << seed << " (DPGPU_TEST_SEED=" << base_seed() << ")";
      if (!check_one(x, expected.cost, cfg, label.str()) && ++failures >= 6) {
        ADD_FAILURE() << "stopping this configuration after 6 failures";
        return;
      }
    }
}

TEST_P(TspWavefrontConfigs, MatchesHeldKarpUpTo14Cities) {
  const TspWavefrontConfig cfg = GetParam();
  SCOPED_TRACE(describe(cfg));
  agreement(cfg, 14,
            std::uint64_t(cfg.block) * 7 + std::uint64_t(cfg.offload_slot_bytes) +
                cfg.readonly.size() * 13 + (cfg.offload ? 1 : 0) + (cfg.reconstruct ? 2 : 0) +
                int(cfg.distances) * 5);
}

// For compute-sanitizer (sanitize-tsp.txt): n = 1..9, fewer solves, every code path.
TEST_P(TspWavefrontConfigs, SmallMatchesHeldKarp) {
  const TspWavefrontConfig cfg = GetParam();
  SCOPED_TRACE(describe(cfg));
  agreement(cfg, 9,
            77 + std::uint64_t(cfg.block) * 7 + std::uint64_t(cfg.offload_slot_bytes) +
                cfg.readonly.size() * 13 + (cfg.offload ? 1 : 0) + (cfg.reconstruct ? 2 : 0) +
                int(cfg.distances) * 5);
}

TspWavefrontConfig config(int block, const char* readonly, TspDistances distances,
                          bool offload = true, bool reconstruct = true, int slots = 4,
                          std::int64_t slot_bytes = 8 << 20, int waves = 4) {
  TspWavefrontConfig c;
  c.block = block;
  c.readonly = readonly;
  c.distances = distances;
  c.offload = offload;
  c.reconstruct = reconstruct;
  c.offload_slots = slots;
  c.offload_slot_bytes = slot_bytes;
  c.waves = waves;
  return c;
}

// Index order matters to sanitize-tsp.txt (racecheck runs a few by number).
INSTANTIATE_TEST_SUITE_P(
    Configs, TspWavefrontConfigs,
    ::testing::Values(
        config(256, "ldg", TspDistances::Shared),               // 0: the defaults
        config(256, "texture", TspDistances::Shared),           // 1
        config(256, "plain", TspDistances::Shared),             // 2
        config(256, "ldg", TspDistances::ReadOnly),             // 3
        config(256, "texture", TspDistances::ReadOnly),         // 4
        config(256, "plain", TspDistances::ReadOnly),           // 5
        config(256, "ldg", TspDistances::Shared, false),        // 6: argmins kept on the device
        config(256, "ldg", TspDistances::Shared, true, false),  // 7: cost only
        config(256, "texture", TspDistances::ReadOnly, true, false),  // 8: cost only, texture arcs
        config(64, "ldg", TspDistances::Shared, true, true, 2, 64),   // 9: tiny ring, wraps around
        config(32, "plain", TspDistances::Shared, true, true, 3, 100,
               1),  // 10: odd slot size, one wave
        config(1024, "texture", TspDistances::Shared, true, true, 64, 1 << 30,
               64)));  // 11: big block/ring

// n = 1..3 by hand: no layer at all (n <= 2), and n = 3: one launch, one subset of two cities.
TEST_F(TspWavefrontGpu, SmallestInstancesByHand) {
  for (bool reconstruct : {true, false}) {
    auto cfg = config(256, "ldg", TspDistances::Shared, true, reconstruct);
    check_one(tsp::make_instance(1, {7}, "n1"), 0, cfg, "one city");
    check_one(tsp::make_instance(2, {0, 5, 9, 0}, "n2"), 14, cfg, "two cities, asymmetric");
    // 0→1→2→0 costs 1+1+1 = 3; 0→2→1→0 costs 10+10+10 = 30.
    check_one(tsp::make_instance(3, {0, 1, 10, 10, 0, 1, 1, 10, 0}, "n3"), 3, cfg,
              "three cities, asymmetric");
    check_one(tsp::make_instance(3, {0, 0, 0, 0, 0, 0, 0, 0, 0}, "zeros"), 0, cfg,
              "three cities at one point");
    // The diagonal is never used, even when negative or huge.
    check_one(tsp::make_instance(3, {-1000, 2, 3, 2, 1'000'000'000'000, 4, 3, 4, -5}, "diag"), 9,
              cfg, "three cities, odd diagonal");
  }
}

// With two 64-byte slots every layer of n = 16 goes in many chunks, and the ring wraps around
// hundreds of times: the argmins must still land in place (the tour is checked).
TEST_F(TspWavefrontGpu, TinyRingWrapsAroundAndCounts) {
  const auto x = tsp::random_matrix(16, 1, 1000, mix(base_seed() ^ 16));
  const auto expected = tsp::cpu::held_karp(x);
  GpuRun r;
  const auto cfg = config(128, "ldg", TspDistances::Shared, true, true, 2, 64);
  ASSERT_TRUE(check_one(x, expected.cost, cfg,
                        "random_matrix n=16 seed-mixed " + std::to_string(base_seed()), &r));
  const int m = 15;
  const double argmins = double(dpgpu::wavefront::tsp_argmin_bytes(m));
  EXPECT_EQ(argmins, double(m) * double(1 << (m - 1)) - m);
  EXPECT_EQ(r.counters["bytes_offloaded"], argmins);
  EXPECT_GT(r.counters["offload_chunks"], 2.0 * 20)
      << "expected many chunks per layer with 64-byte slots";
  double chunks = 0;
  for (int k = 2; k <= m; ++k)
    chunks += double((dpgpu::wavefront::tsp_layer_cells(m, k) + 63) / 64);
  EXPECT_EQ(r.counters["offload_chunks"], chunks);
  EXPECT_GE(r.counters["offload_compute_wait_s"], 0.0);
}

TEST_F(TspWavefrontGpu, CountersPhasesAndMemory) {
  const auto x = tsp::euclidean(13, 1000, mix(base_seed() ^ 13));
  const auto expected = tsp::cpu::held_karp(x);
  for (bool offload : {true, false})
    for (bool reconstruct : {true, false}) {
      const auto cfg = config(256, "ldg", TspDistances::Shared, offload, reconstruct);
      SCOPED_TRACE(describe(cfg));
      GpuRun r;
      ASSERT_TRUE(check_one(x, expected.cost, cfg, "euclidean n=13", &r));
      const int m = 12;
      EXPECT_EQ(r.counters["diagonals"], m - 1);
      EXPECT_EQ(r.counters["kernel_launches"], m - 1);
      EXPECT_EQ(r.counters["cell_bytes"], 4);
      const auto need = dpgpu::wavefront::tsp_bytes(x.n, 4, cfg);
      EXPECT_EQ(r.peak, need.device)
          << "the estimate (.memory()) must equal what the DeviceBuffers hold";
      EXPECT_EQ(r.counters["peak_device_bytes"], double(need.device));
      EXPECT_EQ(r.counters["host_bytes"], double(need.host));
      EXPECT_EQ(r.counters["bytes_offloaded"],
                offload && reconstruct ? double(dpgpu::wavefront::tsp_argmin_bytes(m)) : 0.0);
      for (const char* p : {"alloc", "h2d", "compute", "d2h"})
        EXPECT_TRUE(r.phases.count(p)) << "phase " << p;
    }
}

TEST_F(TspWavefrontGpu, LargerInstancesAgreeWithCpu) {
  for (int n : {18, 20}) {
    for (std::size_t kind : {std::size_t(0), std::size_t(3), std::size_t(5)}) {
      const std::uint64_t seed = mix(base_seed() ^ (std::uint64_t(n) * 977 + kind));
      const auto x = kinds()[kind].make(n, seed);
      const auto expected = tsp::cpu::omp_held_karp(x, 0);
      const std::string label = std::string(kinds()[kind].name) + " seed " + std::to_string(seed);
      check_one(x, expected.cost, config(256, "ldg", TspDistances::Shared), label);
      if (n == 20)
        check_one(x, expected.cost, config(256, "texture", TspDistances::ReadOnly, false), label);
    }
  }
}

TEST_F(TspWavefrontGpu, RefusesTooManyCitiesAndStopsAtTheDeadline) {
  const auto big = tsp::random_matrix(34, 1, 10, 1);
  dpgpu::Context ctx(dpgpu::Backend::Gpu, an_hour());
  EXPECT_THROW(dpgpu::wavefront::tsp_wavefront(big, TspWavefrontConfig{}, ctx), dpgpu::InputError);

  const auto x = tsp::random_matrix(16, 1, 100, 3);
  dpgpu::Context late(dpgpu::Backend::Gpu,
                      std::chrono::steady_clock::now() - std::chrono::seconds(1));
  late.begin();
  EXPECT_THROW(dpgpu::wavefront::tsp_wavefront(x, TspWavefrontConfig{}, late), dpgpu::Timeout);
  // The context and the device stay usable: a fresh solve works.
  const auto expected = tsp::cpu::held_karp(x);
  check_one(x, expected.cost, TspWavefrontConfig{}, "random_matrix n=16 after a timeout");
}

// ---------------------------------------------------------------------------- TSPLIB

// Writes `text` to a temporary file and loads it with the problem's TSPLIB reader.
tsp::Instance load_text(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("dpgpu_test_" + std::to_string(::getpid()) + "_" + name);
  {
    std::ofstream out(path);
    out << text;
  }
  auto loaded = tsp::Problem::load(dpgpu::FileSource{{path}, ""});
  std::filesystem::remove(path);
  return std::move(loaded.at(0).instance);
}

const char* kBurma14 = R"tsplib(NAME: burma14
TYPE: TSP
COMMENT: 14-Staedte in Burma (Zaw Win)
DIMENSION: 14
EDGE_WEIGHT_TYPE: GEO
EDGE_WEIGHT_FORMAT: FUNCTION 
DISPLAY_DATA_TYPE: COORD_DISPLAY
NODE_COORD_SECTION
   1  16.47       96.10
   2  16.47       94.44
   3  20.09       92.54
   4  22.39       93.37
   5  25.23       97.24
   6  22.00       96.05
   7  20.47       97.02
   8  17.20       96.29
   9  16.30       97.38
  10  14.05       98.12
  11  16.53       97.38
  12  21.52       95.59
  13  19.41       97.13
  14  20.09       94.55
EOF



)tsplib";
const char* kBr17 = R"tsplib(NAME:  br17
TYPE: ATSP
COMMENT: 17 city problem (Repetto)
DIMENSION:  17
EDGE_WEIGHT_TYPE: EXPLICIT
EDGE_WEIGHT_FORMAT: FULL_MATRIX 
EDGE_WEIGHT_SECTION
 9999    3    5   48   48    8    8    5    5    3    3    0    3    5    8    8
    5
    3 9999    3   48   48    8    8    5    5    0    0    3    0    3    8    8
    5
    5    3 9999   72   72   48   48   24   24    3    3    5    3    0   48   48
   24
   48   48   74 9999    0    6    6   12   12   48   48   48   48   74    6    6
   12
   48   48   74    0 9999    6    6   12   12   48   48   48   48   74    6    6
   12
    8    8   50    6    6 9999    0    8    8    8    8    8    8   50    0    0
    8
    8    8   50    6    6    0 9999    8    8    8    8    8    8   50    0    0
    8
    5    5   26   12   12    8    8 9999    0    5    5    5    5   26    8    8
    0
    5    5   26   12   12    8    8    0 9999    5    5    5    5   26    8    8
    0
    3    0    3   48   48    8    8    5    5 9999    0    3    0    3    8    8
    5
    3    0    3   48   48    8    8    5    5    0 9999    3    0    3    8    8
    5
    0    3    5   48   48    8    8    5    5    3    3 9999    3    5    8    8
    5
    3    0    3   48   48    8    8    5    5    0    0    3 9999    3    8    8
    5
    5    3    0   72   72   48   48   24   24    3    3    5    3 9999   48   48
   24
    8    8   50    6    6    0    0    8    8    8    8    8    8   50 9999    0
    8
    8    8   50    6    6    0    0    8    8    8    8    8    8   50    0 9999
    8
    5    5   26   12   12    8    8    0    0    5    5    5    5   26    8    8
 9999
EOF
)tsplib";

TEST_F(TspWavefrontGpu, EmbeddedTsplibInstancesReachTheirOptima) {
  const auto burma = load_text("burma14.tsp", kBurma14);
  const auto br17 = load_text("br17.atsp", kBr17);
  ASSERT_TRUE(burma.symmetric);
  ASSERT_FALSE(br17.symmetric);
  for (const char* path : {"texture", "ldg", "plain"})
    for (auto distances : {TspDistances::Shared, TspDistances::ReadOnly}) {
      check_one(burma, 3323, config(256, path, distances), "burma14 (TSPLIB optimum 3323)");
      check_one(br17, 39, config(256, path, distances), "br17 (TSPLIB ATSP optimum 39)");
    }
}

// The shared folder's instances the DP reaches, with their published optima (OPTIMA.tsv).
// Skipped when $DPGPU_SHARED is unset or lacks the files (the device machine has no copy).
TEST_F(TspWavefrontGpu, SharedTsplibInstancesReachTheirOptima) {
  const std::filesystem::path dir = dpgpu::shared_data_dir("tsplib");
  if (dir.empty() || !std::filesystem::exists(dir / "OPTIMA.tsv"))
    GTEST_SKIP() << "no shared TSPLIB data with OPTIMA.tsv";
  int ran = 0;
  for (const char* file : {"burma14.tsp", "ulysses16.tsp", "gr17.tsp", "br17.atsp", "gr21.tsp",
                           "ulysses22.tsp", "gr24.tsp", "fri26.tsp"}) {
    if (!std::filesystem::exists(dir / file)) continue;
    auto loaded = tsp::Problem::load(dpgpu::FileSource{{dir / file}, ""});
    ASSERT_EQ(loaded.size(), 1u);
    ASSERT_TRUE(loaded[0].known_optimum.has_value()) << file << " has no optimum in OPTIMA.tsv";
    check_one(loaded[0].instance, *loaded[0].known_optimum, TspWavefrontConfig{}, file);
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "none of the TSPLIB files in " << dir;
}

}  // namespace
