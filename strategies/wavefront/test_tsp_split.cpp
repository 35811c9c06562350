// test_tsp_split.cpp — gpu.wavefront for the TSP over several GPUs, host side: the split of
// each layer across GPUs (tsp_split.hpp), the memory figures and the plan `dpgpu check`
// prints, the `gpus` parameter and its rules through the registration, and the exchange the
// split leaves (the enumeration the GPU test holds the kernel's counter to). Host C++ only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/generators.hpp"
#include "tsp/subset_rank.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"
#include "tsp_split.hpp"

namespace {

using namespace dpgpu::wavefront;

TEST(TspSplit, SharesTileEveryLayerAndTheHostArray) {
  for (int m : {2, 3, 7, 13, 24, 32, 33, 34})
    for (int gpus : {1, 2, 3, 4, 8}) {
      const TspSplit s{m, gpus};
      std::uint64_t pair = 0;
      for (int k = 1; k <= m; ++k) {
        ASSERT_EQ(s.lo(k, 0), 0u);
        ASSERT_EQ(s.lo(k, gpus), tsp_layer_subsets(m, k));
        std::uint64_t sum = 0;
        for (int g = 0; g < gpus; ++g) {
          ASSERT_LE(s.lo(k, g), s.lo(k, g + 1));
          // equal shares: sizes differ by at most one subset
          ASSERT_LE(s.subsets(k, g), tsp_layer_subsets(m, k) / gpus + 1);
          if (s.subsets(k, g) > 0) {
            ASSERT_EQ(s.owner(k, s.lo(k, g)), g);
            ASSERT_EQ(s.owner(k, s.lo(k, g + 1) - 1), g);
          }
          if (k >= 2) {
            // GPU g's argmins follow GPU g − 1's; the last GPU's end where layer k + 1 starts
            ASSERT_EQ(s.argmin_offset(k, g), tsp_argmin_offset(m, k) + sum * std::uint64_t(k));
            pair = std::max(pair, s.cells(k, g) + s.cells(k - 1, g));
            ASSERT_LE(s.cells(k, g) + s.cells(k - 1, g), s.pair_cells(g));
          }
          sum += s.subsets(k, g);
        }
        if (k >= 2) {
          ASSERT_EQ(s.argmin_offset(k, gpus - 1) + s.cells(k, gpus - 1),
                    tsp_argmin_offset(m, k + 1));
        }
      }
      std::uint64_t most = 0;
      for (int g = 0; g < gpus; ++g) most = std::max(most, s.pair_cells(g));
      ASSERT_EQ(most, pair) << m << " " << gpus;
      if (gpus == 1) {
        ASSERT_EQ(s.pair_cells(0), tsp_two_layer_cells(m));
      }
    }
}

TEST(TspSplit, MemoryFiguresPerGpuAndHost) {
  TspWavefrontConfig c;
  c.gpus = 2;
  // n = 34 (m = 33): two H200s hold it, one does not; the host holds every argmin.
  const TspMultiBytes b = tsp_multi_bytes(34, 4, c);
  ASSERT_EQ(b.gpu.size(), 2u);
  const TspSplit s{33, 2};
  for (int g = 0; g < 2; ++g) {
    EXPECT_EQ(b.gpu[std::size_t(g)].costs, s.pair_cells(g) * 4);
    EXPECT_EQ(b.gpu[std::size_t(g)].argmins, s.pair_cells(g));
  }
  EXPECT_EQ(b.argmins, tsp_argmin_bytes(33));
  EXPECT_EQ(b.argmins, 33ull * (1ull << 32) - 33);
  EXPECT_LT(b.device_max(), 141'000'000'000ull) << "one H200's share at n = 34";
  EXPECT_GT(tsp_bytes(34, 4, TspWavefrontConfig{}).device, 141'000'000'000ull);
  EXPECT_EQ(b.staging, 2ull * std::uint64_t(c.offload_slots) * std::uint64_t(c.offload_slot_bytes));
  EXPECT_EQ(b.host, b.argmins + b.staging + 33 * 4);
  // Two GPUs: each about half of one GPU's cost layers.
  const auto one = tsp_bytes(33, 4, TspWavefrontConfig{});
  TspWavefrontConfig two;
  two.gpus = 2;
  EXPECT_NEAR(double(tsp_multi_bytes(33, 4, two).device_max()), double(one.device) / 2,
              0.01 * double(one.device));
  // n = 35 over four: each share under an H200's memory.
  TspWavefrontConfig four;
  four.gpus = 4;
  EXPECT_LT(tsp_multi_bytes(35, 4, four).device_max(), 141'000'000'000ull);
  c.reconstruct = false;
  EXPECT_EQ(tsp_multi_bytes(34, 4, c).argmins, 0u);
  EXPECT_EQ(tsp_multi_bytes(34, 4, c).gpu[0].argmins, 0u);
}

// The split keeps most predecessors on their GPU: the enumerated exchange is a minority of
// the relaxations that shrinks as m grows (the highest cities decide more of the rank), none
// with one GPU; and the enumeration itself against a count by hand for one small layer.
TEST(TspSplit, ExchangeIsAMinorityOfTheReads) {
  for (int gpus : {1, 2, 4}) {
    double before = 1;
    for (int m : {14, 18}) {
      const TspSplit s{m, gpus};
      std::uint64_t remote = 0, all = 0;
      for (int k = 2; k <= m; ++k) {
        remote += tsp_remote_relaxations(s, k);
        all += tsp_layer_cells(m, k) * std::uint64_t(k - 1);
      }
      const double share = double(remote) / double(all);
      if (gpus == 1) {
        EXPECT_EQ(remote, 0u);
        continue;
      }
      EXPECT_GT(remote, 0u);
      EXPECT_LT(share, gpus == 2 ? 0.2 : 0.4) << m << " " << gpus;
      EXPECT_LT(share, before) << m << " " << gpus;
      before = share;
    }
  }
  // m = 4, k = 2, 2 GPUs: layer 1 {0,1} | {2,3}; layer 2 ranks 0..2 {01, 02, 12} | 3..5
  // {03, 13, 23}. GPU 0: {0,2} reads {0} (own) and {2} (other): 1; {1,2}: 1. GPU 1: {0,3}
  // reads {3} (own) and {0} (other); {1,3}: {1} other; {2,3}: both own. So 4 relaxations of 1.
  EXPECT_EQ(tsp_remote_relaxations(TspSplit{4, 2}, 2), 4u);
}

TEST(TspSplit, GpusParameterAndItsRules) {
  const auto* s = dpgpu::Registry::get().solver("tsp", "gpu.wavefront");
  ASSERT_NE(s, nullptr);
  auto p = s->schema.resolve({});
  EXPECT_EQ(p.integer("gpus"), 1);
  EXPECT_TRUE(s->check(p, {{"n", std::int64_t{34}}}));
  p = s->schema.resolve({{"gpus", std::int64_t{2}}});
  EXPECT_EQ(s->check(p, {{"n", std::int64_t{35}}}), std::nullopt);
  ASSERT_TRUE(s->check(p, {{"n", std::int64_t{36}}}));
  EXPECT_NE(s->check(p, {{"n", std::int64_t{36}}})->find("gpus = 2"), std::string::npos);
  try {
    s->schema.resolve({{"gpus", std::int64_t{kTspMaxGpus + 1}}}, "test");
    ADD_FAILURE() << "gpus beyond the kernel's shares accepted";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpus"), std::string::npos) << e.what();
  }
  auto refused = [](TspWavefrontConfig c, const std::string& key) {
    try {
      validate(c);
      ADD_FAILURE() << "accepted; expected a refusal naming '" << key << "'";
    } catch (const dpgpu::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + key + "'"), std::string::npos) << e.what();
    }
  };
  TspWavefrontConfig c;
  c.gpus = 2;
  EXPECT_NO_THROW(validate(c));
  c.distances = TspDistances::ReadOnly;
  refused(c, "distances");
  c = {}, c.gpus = 2, c.readonly = "texture";
  refused(c, "readonly");
  c = {}, c.gpus = 2, c.offload = false;
  refused(c, "offload");
  c.reconstruct = false;
  EXPECT_NO_THROW(validate(c));
  c = {}, c.gpus = 0;
  refused(c, "gpus");
}

TEST(TspSplit, MemoryPlanThroughTheRegistration) {
  const auto* s = dpgpu::Registry::get().solver("tsp", "gpu.wavefront");
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->memory_plan);
  const auto two = s->schema.resolve({{"gpus", std::int64_t{2}}});
  const std::string plan = s->memory_plan(two, {{"n", std::int64_t{34}}});
  EXPECT_NE(plan.find("n = 34 over 2 GPUs"), std::string::npos) << plan;
  EXPECT_NE(plan.find("widest layers 16 and 17"), std::string::npos) << plan;
  EXPECT_NE(plan.find("per GPU"), std::string::npos) << plan;
  EXPECT_NE(plan.find("host"), std::string::npos) << plan;
  const std::string one = s->memory_plan(s->schema.resolve({}), {{"n", std::int64_t{30}}});
  EXPECT_NE(one.find("over 1 GPU,"), std::string::npos) << one;
  EXPECT_EQ(s->memory_plan(s->schema.resolve({}), {{"n", std::int64_t{40}}}), "");
  // The registration's device figure for gpus > 1 is one card's share.
  auto inst =
      dpgpu::erase_instance<tsp::Problem>({"x", tsp::random_matrix(20, 1, 1000, 1), std::nullopt});
  TspWavefrontConfig c;
  c.gpus = 2;
  EXPECT_EQ(s->memory(inst, two).device, tsp_multi_bytes(20, 4, c).device_max());
  EXPECT_EQ(s->memory(inst, two).host, tsp_multi_bytes(20, 4, c).host);
}

}  // namespace
