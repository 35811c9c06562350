// test_ivm_multigpu.cu — gpu.ivm over 2 and 4 logical GPUs (ivm_multi.cu; on one card the
// logical GPUs share it) against cpu.dfs and the one-GPU solver: with the optimal bound the
// node counts are equal (and the per-GPU counts add up to them), every tour is rechecked by
// tsp::Problem::check, the interval checks (tiling, each TreeExplore, each work-stealing
// phase, each give between GPUs) pass, and without a bound the optimum is still found.
// Skipped (not passed) without a device.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "backtracking.hpp"
#include "device_buffer.cuh"  // dpgpu::gpu::device_present
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "gpu_test_support.cuh"
#include "test_support.hpp"
#include "tsp/search_bound.hpp"

namespace bt = dpgpu::backtracking;

namespace {

using bt_test::expect_tour;
using bt_test::make_ctx;

// The per-GPU node counters add up to the total (the root is counted on the host).
void expect_per_gpu_counters(const dpgpu::Context& ctx, int gpus, std::uint64_t nodes,
                             const std::string& what) {
  const auto& k = ctx.counters();
  double sum = 0;
  for (int i = 0; i < gpus; ++i) {
    const std::string p = "gpu" + std::to_string(i) + ".";
    sum += k.at(p + "nodes");
    EXPECT_GE(k.at(p + "compute_s"), 0) << what;
    EXPECT_GE(k.at(p + "wait_s"), 0) << what;
    EXPECT_GE(k.at(p + "steal_s"), 0) << what;
  }
  EXPECT_EQ(sum + 1, double(nodes)) << what;
  EXPECT_EQ(k.at("gpus"), gpus) << what;
  EXPECT_GE(k.at("gpus.physical"), 1) << what;
  EXPECT_LE(k.at("gpus.physical"), gpus) << what;
}

struct Setting {
  std::int64_t explorers, arity, trigger, poll;
  bool check;
};

TEST(IvmMultiGpu, NodeCountsEqualCpuDfsAndOneGpu) {
  NEED_GPU();
  const std::vector<Setting> settings = {
      {262144, 8, 0, 64, false},  // the defaults
      {64, 4, 1, 4, true},        // trigger 1, every step checked, gives between GPUs checked
      {512, 8, 7, 8, true},
      {1, 2, 1, 3, true},  // one explorer per GPU: no stealing within a GPU
  };
  int cases = 0;
  double gives = 0;  // between GPUs, over every case (each one checked with the checked settings)
  for (const auto& kind : bt_test::kinds()) {
    if (kind.name != "coin" && kind.name != "crane" && kind.name != "tsmat") continue;
    for (int n = 2; n <= 12; ++n) {
      const tsp::Instance x =
          kind.make(n, bt_test::mix(std::uint64_t(n) * 7919 + kind.name.size()));
      const auto ref = bt_test::reference(x);
      for (const auto& s : settings) {
        if (s.check && n > 10) continue;  // the host-side checks copy every interval per step
        bt::IvmConfig c;
        c.explorers = s.explorers, c.arity = s.arity, c.trigger = s.trigger, c.poll = s.poll;
        c.check_intervals = s.check;
        auto one_ctx = make_ctx();
        const auto one = bt::ivm_search(x, c, ref.optimum, one_ctx);
        for (int gpus : {2, 4}) {
          c.gpus = gpus;
          auto ctx = make_ctx();
          const std::string what = kind.name + " n=" + std::to_string(n) +
                                   " T=" + std::to_string(s.explorers) +
                                   " gpus=" + std::to_string(gpus);
          const auto r = bt::ivm_search(x, c, ref.optimum, ctx);
          ASSERT_EQ(r.nodes, ref.nodes) << what;
          ASSERT_EQ(r.nodes, one.nodes) << what;
          expect_tour(x, r, ref.found, what);
          if (n >= 3) expect_per_gpu_counters(ctx, gpus, r.nodes, what);
          if (s.check && n >= 4) EXPECT_GT(ctx.counters().at("interval_checks"), 0) << what;
          if (n >= 3) gives += ctx.counters().at("inter_gpu_steals");
          ++cases;
        }
        c.gpus = 1;
      }
    }
  }
  EXPECT_GT(cases, 150);
  EXPECT_GT(gives, 0);
}

// n = 13, the size the one-GPU tests end with, at the defaults (GPUs may all end before one
// runs dry while another has work: gives are asserted over the small cases above).
TEST(IvmMultiGpu, LargerInstancesAgreeWithOneGpu) {
  NEED_GPU();
  for (const auto& kind : bt_test::kinds()) {
    if (kind.name != "coin" && kind.name != "crane" && kind.name != "tsmat") continue;
    const tsp::Instance x = kind.make(13, 99);
    const auto ref = bt_test::reference(x);
    bt::IvmConfig c;
    auto one_ctx = make_ctx();
    const auto one = bt::ivm_search(x, c, ref.optimum, one_ctx);
    EXPECT_EQ(one.nodes, ref.nodes) << kind.name;
    for (int gpus : {2, 4}) {
      c.gpus = gpus;
      auto ctx = make_ctx();
      const auto r = bt::ivm_search(x, c, ref.optimum, ctx);
      const std::string what = kind.name + " gpus=" + std::to_string(gpus);
      EXPECT_EQ(r.nodes, one.nodes) << what;
      expect_tour(x, r, one.cost, what);
      expect_per_gpu_counters(ctx, gpus, r.nodes, what);
      EXPECT_GT(ctx.counters().at("ws_phases"), 0) << what;
    }
  }
}

// Without a starting bound (tours found on one GPU lower the others' bounds through the
// host) and above the optimum: the optimum with a valid tour; below it: no tour, and the
// node count of cpu.dfs at that bound. Also the sanitizer case (sanitize-backtracking.txt).
TEST(IvmMultiGpu, LooserAndTighterBounds) {
  NEED_GPU();
  const tsp::Instance x = tsp::crane(11, tsp::CraneShape{}, 5);
  const auto ref = bt_test::reference(x);
  for (int gpus : {2, 4})
    for (std::int64_t b : {tsp::kNoBound, ref.optimum + 1}) {
      bt::IvmConfig c;
      c.explorers = 512, c.trigger = 16, c.poll = 4, c.gpus = gpus;
      auto ctx = make_ctx();
      const auto r = bt::ivm_search(x, c, b, ctx);
      const std::string what = "gpus=" + std::to_string(gpus) + " bound " + std::to_string(b);
      expect_tour(x, r, ref.optimum, what);
      EXPECT_GE(r.nodes, ref.nodes) << what;
      expect_per_gpu_counters(ctx, gpus, r.nodes, what);
    }
  bt::IvmConfig c;
  c.explorers = 512, c.gpus = 2;
  auto ctx = make_ctx();
  const auto below = bt::ivm_search(x, c, ref.optimum - 1, ctx);
  EXPECT_TRUE(below.tour.empty());
  EXPECT_EQ(below.nodes, tsp::cpu::dfs(x, ref.optimum - 1).nodes);
}

TEST(IvmMultiGpu, SmallestInstancesAndRefusals) {
  NEED_GPU();
  for (int n = 1; n <= 3; ++n) {
    const tsp::Instance x = tsp::random_matrix(n, 1, 5, 42);
    const auto ref = bt_test::reference(x);
    bt::IvmConfig c;
    c.gpus = 4;
    auto ctx = make_ctx();
    const auto r = bt::ivm_search(x, c, ref.optimum, ctx);
    EXPECT_EQ(r.nodes, ref.nodes) << n;
    expect_tour(x, r, ref.found, "n=" + std::to_string(n));
  }
  const tsp::Instance x = tsp::coin(8, tsp::CoinShape{}, 1);
  for (std::int64_t gpus : {0, 65}) {
    bt::IvmConfig c;
    c.gpus = gpus;
    auto ctx = make_ctx();
    EXPECT_THROW(bt::ivm_search(x, c, tsp::kNoBound, ctx), dpgpu::InputError) << gpus;
  }
}

}  // namespace
