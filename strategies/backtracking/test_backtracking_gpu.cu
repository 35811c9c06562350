// test_backtracking_gpu.cu — gpu.ivm and gpu.bpdfs on the device against cpu.dfs (node counts,
// identical with the optimal bound) and Held-Karp (optima), on the ATSP classes and random
// matrices n = 2..12, under many explorers / trigger / arity settings (trigger 1 and
// trigger >= T included) with the interval checks on; every tour rechecked by
// tsp::Problem::check; bounds none / above / below the optimum; the named refusals. Skipped
// (not passed) without a device.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "backtracking.hpp"
#include "device_buffer.cuh"  // dpgpu::gpu::device_present
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "factoradic.hpp"
#include "gpu_test_support.cuh"
#include "test_support.hpp"
#include "tsp/search_bound.hpp"

namespace bt = dpgpu::backtracking;

namespace {

using bt_test::expect_tour;
using bt_test::make_ctx;

struct IvmSetting {
  std::int64_t explorers, arity, trigger, poll;
  bool check;
  bool graph = true;
  bt::IvmState state = bt::IvmState::Packed;
};

TEST(IvmGpu, NodeCountsEqualCpuDfsAtTheOptimum) {
  NEED_GPU();
  const std::vector<IvmSetting> settings = {
      {262144, 8, 0, 64, false},  // the defaults (8^6 packed explorers, trigger T/10)
      {32768, 8, 0, 64, false, true, bt::IvmState::Matrix},  // the paper's: 8^5 matrix explorers
      {64, 4, 1, 4, true, true, bt::IvmState::Matrix},
      {64, 4, 1, 4, true},     // trigger 1: a work-stealing phase as soon as one explorer is empty
      {64, 8, 64, 16, true},   // trigger = T: no balancing
      {81, 3, 1000, 8, true},  // trigger > T
      {256, 2, 25, 2, true},
      {1, 2, 1, 3, true},
      {4096, 16, 409, 32, false},
      {512, 8, 7, 8, true, false}};  // work stealing by plain launches instead of the graph
  int cases = 0;
  for (const auto& kind : bt_test::kinds())
    for (int n = 2; n <= 12; ++n) {
      const tsp::Instance x =
          kind.make(n, bt_test::mix(std::uint64_t(n) * 7919 + kind.name.size()));
      const auto ref = bt_test::reference(x);
      for (const auto& s : settings) {
        if (s.check && n > 10)
          continue;  // the host-side interval checks copy T intervals per phase
        bt::IvmConfig c;
        c.explorers = s.explorers;
        c.arity = s.arity;
        c.trigger = s.trigger;
        c.poll = s.poll;
        c.check_intervals = s.check;
        c.ws_graph = s.graph;
        c.state = s.state;
        auto ctx = make_ctx();
        const std::string what =
            kind.name + " n=" + std::to_string(n) + " T=" + std::to_string(s.explorers) +
            " trigger=" + std::to_string(s.trigger) + " " + bt::ivm_state_name(s.state);
        const auto r = bt::ivm_search(x, c, ref.optimum, ctx);
        ASSERT_EQ(r.nodes, ref.nodes) << what;
        expect_tour(x, r, ref.found, what);
        ++cases;
      }
    }
  EXPECT_GT(cases, 300);
}

TEST(BpdfsGpu, NodeCountsEqualCpuDfsAtTheOptimum) {
  NEED_GPU();
  for (const auto& kind : bt_test::kinds())
    for (int n = 2; n <= 12; ++n) {
      const tsp::Instance x =
          kind.make(n, bt_test::mix(std::uint64_t(n) * 104729 + kind.name.size()));
      const auto ref = bt_test::reference(x);
      for (int dcpu : {1, 3, 7, 32})
        for (int block : {32, 128}) {
          bt::BpdfsConfig c;
          c.dcpu = dcpu;
          c.block = block;
          auto ctx = make_ctx();
          const std::string what =
              kind.name + " n=" + std::to_string(n) + " dcpu=" + std::to_string(dcpu);
          const auto r = bt::bpdfs_search(x, c, ref.optimum, ctx);
          ASSERT_EQ(r.nodes, ref.nodes) << what;
          expect_tour(x, r, ref.found, what);
        }
    }
}

TEST(IvmGpu, LargerInstancesAgreeWithCpuDfs) {
  NEED_GPU();
  for (const auto& kind : bt_test::kinds()) {
    if (kind.name == "ties" || kind.name == "wide") continue;
    const tsp::Instance x = kind.make(13, 99);
    const auto ref = bt_test::reference(x);
    bt::IvmConfig c;
    auto ctx = make_ctx();
    const auto r = bt::ivm_search(x, c, ref.optimum, ctx);
    EXPECT_EQ(r.nodes, ref.nodes) << kind.name;
    expect_tour(x, r, ref.found, kind.name);
    // The packed state stays in registers: local memory holds only ivm_init's digits and a few
    // spills (the matrix explorer's ~380-byte state lives there).
    EXPECT_LT(ctx.counters().at("local_bytes"), 128) << kind.name;
    EXPECT_LE(ctx.counters().at("registers"), 32) << kind.name;
    bt::IvmConfig mc;
    mc.state = bt::IvmState::Matrix;
    mc.explorers = 32768;
    auto ctxm = make_ctx();
    const auto rm = bt::ivm_search(x, mc, ref.optimum, ctxm);
    EXPECT_EQ(rm.nodes, ref.nodes) << kind.name << " matrix";
    expect_tour(x, rm, ref.found, kind.name + " matrix");
    bt::BpdfsConfig b;
    auto ctx2 = make_ctx();
    const auto q = bt::bpdfs_search(x, b, ref.optimum, ctx2);
    EXPECT_EQ(q.nodes, ref.nodes) << kind.name;
    expect_tour(x, q, ref.found, kind.name);
    EXPECT_GT(ctx.counters().at("ws_phases"), 0) << kind.name;
  }
}

TEST(IvmGpu, LooserAndTighterBounds) {
  NEED_GPU();
  const tsp::Instance x = tsp::coin(11, tsp::CoinShape{}, 3);
  const auto ref = bt_test::reference(x);
  for (std::int64_t b : {tsp::kNoBound, ref.optimum + 1, ref.optimum * 2}) {
    bt::IvmConfig c;
    c.explorers = 512;
    c.trigger = 51;
    auto ctx = make_ctx();
    const auto r = bt::ivm_search(x, c, b, ctx);
    expect_tour(x, r, ref.optimum, "ivm bound " + std::to_string(b));
    EXPECT_GE(r.nodes, ref.nodes);
    bt::BpdfsConfig d;
    auto ctx2 = make_ctx();
    const auto q = bt::bpdfs_search(x, d, b, ctx2);
    expect_tour(x, q, ref.optimum, "bpdfs bound " + std::to_string(b));
  }
  bt::IvmConfig c;
  auto ctx = make_ctx();
  const auto below = bt::ivm_search(x, c, ref.optimum - 1, ctx);
  EXPECT_TRUE(below.tour.empty());
  EXPECT_EQ(below.nodes, tsp::cpu::dfs(x, ref.optimum - 1).nodes);
  auto ctx2 = make_ctx();
  const auto below2 = bt::bpdfs_search(x, bt::BpdfsConfig{}, ref.optimum - 1, ctx2);
  EXPECT_TRUE(below2.tour.empty());
  EXPECT_EQ(below2.nodes, below.nodes);
}

// Both explorer states and bpdfs's bound rereads (poll 1: every node) on a small case, without
// a starting bound (tours recorded often); also a sanitizer case (sanitize-backtracking.txt).
TEST(IvmGpu, BothStatesAndBpdfsPollWithoutABound) {
  NEED_GPU();
  const tsp::Instance x = tsp::crane(11, tsp::CraneShape{}, 5);
  const auto ref = bt_test::reference(x);
  for (const auto state : {bt::IvmState::Packed, bt::IvmState::Matrix}) {
    bt::IvmConfig c;
    c.state = state;
    c.explorers = 512;
    c.trigger = 16;
    c.poll = 4;
    auto ctx = make_ctx();
    const auto r = bt::ivm_search(x, c, tsp::kNoBound, ctx);
    expect_tour(x, r, ref.optimum, std::string("ivm none ") + bt::ivm_state_name(state));
    EXPECT_GE(r.nodes, ref.nodes);
    auto ctx2 = make_ctx();
    const auto q = bt::ivm_search(x, c, ref.optimum, ctx2);
    EXPECT_EQ(q.nodes, ref.nodes) << bt::ivm_state_name(state);
  }
  for (const std::int64_t poll : {1, 1 << 20}) {
    bt::BpdfsConfig b;
    b.poll = poll;
    b.dcpu = 3;
    auto ctx = make_ctx();
    const auto q = bt::bpdfs_search(x, b, tsp::kNoBound, ctx);
    expect_tour(x, q, ref.optimum, "bpdfs none poll " + std::to_string(poll));
    EXPECT_GE(q.nodes, ref.nodes);
  }
}

TEST(IvmGpu, CountersAndRefusals) {
  NEED_GPU();
  const tsp::Instance x = tsp::crane(12, tsp::CraneShape{}, 8);
  const auto ref = bt_test::reference(x);
  auto ctx = make_ctx();
  bt::IvmConfig c;
  c.explorers = 4096;
  c.trigger = 1;
  c.check_intervals = true;
  const auto r = bt::ivm_search(x, c, ref.optimum, ctx);
  EXPECT_EQ(r.nodes, ref.nodes);
  const auto& k = ctx.counters();
  EXPECT_EQ(k.at("nodes"), double(ref.nodes));
  EXPECT_GT(k.at("ws_phases"), 0);
  EXPECT_GT(k.at("steals"), 0);
  EXPECT_GT(k.at("interval_checks"), 0);
  EXPECT_GT(k.at("kernel_nodes_per_s"), 0);
  EXPECT_GE(k.at("idle_per_phase"), 1);
  EXPECT_EQ(k.at("dims"), 4);  // 4096 = 8^4

  const tsp::Instance big = tsp::random_matrix(22, 1, 9, 1);
  auto ctx2 = make_ctx();
  try {
    bt::ivm_search(big, bt::IvmConfig{}, 1000, ctx2);
    FAIL();
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 21"), std::string::npos) << e.what();
  }
  bt::IvmConfig bad;
  bad.explorers = 1000;
  auto ctx3 = make_ctx();
  EXPECT_THROW(bt::ivm_search(x, bad, ref.optimum, ctx3), dpgpu::InputError);
  const tsp::Instance huge = tsp::random_matrix(33, 1, 9, 1);
  auto ctx4 = make_ctx();
  EXPECT_THROW(bt::bpdfs_search(huge, bt::BpdfsConfig{}, 1000, ctx4), dpgpu::InputError);
}

TEST(IvmGpu, SmallestInstances) {
  NEED_GPU();
  for (int n = 1; n <= 3; ++n) {
    const tsp::Instance x = tsp::random_matrix(n, 1, 5, 42);
    const auto ref = bt_test::reference(x);
    auto ctx = make_ctx();
    const auto r = bt::ivm_search(x, bt::IvmConfig{}, ref.optimum, ctx);
    EXPECT_EQ(r.nodes, ref.nodes) << n;
    expect_tour(x, r, ref.found, "n=" + std::to_string(n));
    auto ctx2 = make_ctx();
    const auto q = bt::bpdfs_search(x, bt::BpdfsConfig{}, ref.optimum, ctx2);
    EXPECT_EQ(q.nodes, ref.nodes) << n;
    expect_tour(x, q, ref.found, "n=" + std::to_string(n));
  }
}

}  // namespace
