// test_backtracking_host.cpp — the host side of gpu.ivm and gpu.bpdfs, every build: the
// factoradic conversion and interval splitting round-trip, the initial partition tiles
// [0, m!), the hypercube's victim selection never takes a victim twice, the interval checks
// catch what they must, and both searches run on the CPU with the kernels' own explorer code
// (ivm_init/ivm_explore with the trigger and work-stealing loop of Algorithms 1-2 emulated;
// bp_frontier + bp_explore) count exactly cpu.dfs's nodes with the optimal bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "backtracking_config.hpp"
#include "bp_explorer.hpp"
#include "bp_frontier.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "factoradic.hpp"
#include "hypercube.hpp"
#include "interval_check.hpp"
#include "ivm_explorer.hpp"
#include "ivm_packed.hpp"
#include "test_support.hpp"
#include "tsp/atsp_classes.hpp"
#include "tsp/search_bound.hpp"

namespace bt = dpgpu::backtracking;

namespace {

TEST(Factoradic, RoundTripsEveryPositionOfSmallSizes) {
  for (int m = 1; m <= 7; ++m) {
    const std::uint64_t total = bt::factorial(m);
    std::uint8_t d[bt::kIvmMaxFree];
    for (std::uint64_t p = 0; p < total; ++p) {
      bt::to_factoradic(p, m, d);
      for (int j = 0; j < m; ++j) ASSERT_LE(d[j], m - 1 - j) << "m=" << m << " p=" << p;
      ASSERT_EQ(bt::from_factoradic(d, m), p);
    }
  }
}

TEST(Factoradic, RoundTripsLargePositionsAndOrdersLikeTheTree) {
  std::mt19937_64 rng(7);
  EXPECT_EQ(bt::factorial(20), 2432902008176640000ull);
  for (int m : {12, 17, 20}) {
    const std::uint64_t total = bt::factorial(m);
    std::uint8_t d[bt::kIvmMaxFree], e[bt::kIvmMaxFree];
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t p = rng() % total;
      bt::to_factoradic(p, m, d);
      ASSERT_EQ(bt::from_factoradic(d, m), p);
      if (p + 1 < total) {  // the next position is the lexicographically next digit vector
        bt::to_factoradic(p + 1, m, e);
        ASSERT_TRUE(std::lexicographical_compare(d, d + m, e, e + m));
      }
    }
    bt::to_factoradic(total - 1, m, d);  // the last leaf: digits m-1, m-2, ..., 0
    for (int j = 0; j < m; ++j) EXPECT_EQ(d[j], m - 1 - j);
  }
}

TEST(Intervals, StealSplitKeepsBothHalvesAndTheirUnion) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t a = rng() >> (rng() % 64), len = rng() >> (rng() % 64);
    const std::uint64_t b = a + std::min(len, ~std::uint64_t{0} - a);
    const std::uint64_t s = bt::steal_split(a, b);
    ASSERT_LE(a, s);
    ASSERT_LE(s, b);
    ASSERT_EQ(bt::interval_length(a, s) + bt::interval_length(s, b), bt::interval_length(a, b));
    if (b - a >= 2) ASSERT_TRUE(a < s && s < b) << a << " " << b;
    ASSERT_EQ(b - s, (b - a) / 2);  // the thief gets the right half, the victim the rest
  }
  EXPECT_EQ(bt::interval_length(9, 4), 0u);  // pos past end: empty
}

TEST(Intervals, InitialPartitionTilesTheWholeRange) {
  for (std::uint64_t T : {1ull, 7ull, 64ull, 32768ull})
    for (int m : {1, 3, 5, 11, 20}) {
      const std::uint64_t total = bt::factorial(m);
      bt::Intervals s;
      for (std::uint64_t t = 0; t < T; ++t) {
        s.pos.push_back(bt::partition_begin(total, T, t));
        s.end.push_back(bt::partition_begin(total, T, t + 1));
      }
      EXPECT_NO_THROW(bt::check_tiling(s, total)) << "T=" << T << " m=" << m;
      EXPECT_EQ(s.end.back(), total);
    }
}

TEST(Intervals, ChecksCatchLossDuplicationAndDoubleVictims) {
  const bt::Intervals a{{0, 5, 10}, {5, 10, 20}};
  EXPECT_NO_THROW(bt::check_tiling(a, 20));
  EXPECT_THROW(bt::check_tiling(a, 21), std::logic_error);
  EXPECT_THROW(bt::check_tiling(bt::Intervals{{0, 4}, {5, 20}}, 20), std::logic_error);  // overlap
  EXPECT_THROW(bt::check_tiling(bt::Intervals{{0, 6}, {5, 20}}, 20), std::logic_error);  // gap
  // A steal: explorer 0 empty takes the right half of 2 ([10, 20) -> [10, 15) + [15, 20)).
  const bt::Intervals before{{5, 5, 10}, {5, 10, 20}};
  const bt::Intervals good{{15, 5, 10}, {20, 10, 15}};
  EXPECT_NO_THROW(bt::check_steal_step(before, good, {2, -1, -1}));
  const bt::Intervals lost{{16, 5, 10}, {20, 10, 15}};
  EXPECT_THROW(bt::check_steal_step(before, lost, {2, -1, -1}), std::logic_error);
  const bt::Intervals dup{{14, 5, 10}, {20, 10, 15}};
  EXPECT_THROW(bt::check_steal_step(before, dup, {2, -1, -1}), std::logic_error);
  EXPECT_THROW(bt::check_steal_step(before, good, {2, 2, -1}), std::logic_error);  // victim twice
  EXPECT_THROW(bt::check_steal_step(before, good, {-1, 2, -1}),
               std::logic_error);  // thief not empty
  EXPECT_THROW(bt::check_explore_step(before, bt::Intervals{{4, 5, 10}, {5, 10, 20}}),
               std::logic_error);
  EXPECT_THROW(bt::check_explore_step(before, bt::Intervals{{5, 5, 10}, {5, 11, 20}}),
               std::logic_error);
}

TEST(Hypercube, DimsAndOneLaunchIsABijection) {
  EXPECT_EQ(bt::hypercube_dims(32768, 8), 5);
  EXPECT_EQ(bt::hypercube_dims(32768, 2), 15);
  EXPECT_EQ(bt::hypercube_dims(1, 8), 0);
  EXPECT_FALSE(bt::hypercube_dims(32768, 3));
  EXPECT_FALSE(bt::hypercube_dims(1000, 10 - 1));
  for (std::uint32_t p : {2u, 3u, 8u}) {
    const int dims = *bt::hypercube_dims(p * p * p, p);
    const std::uint32_t T = p * p * p;
    std::uint32_t stride = 1;
    for (int i = 0; i < dims; ++i, stride *= p)
      for (std::uint32_t j = 1; j < p; ++j) {
        std::vector<int> hit(T, 0);
        for (std::uint32_t r = 0; r < T; ++r) {
          const std::uint32_t v = bt::hypercube_neighbor(r, stride, p, j);
          ASSERT_LT(v, T);
          ASSERT_NE(v, r);
          ASSERT_EQ(v / (stride * p), r / (stride * p));  // higher digits unchanged
          ASSERT_EQ(v % stride, r % stride);              // lower digits unchanged
          ++hit[v];
        }
        for (int h : hit) ASSERT_EQ(h, 1);
      }
  }
}

// ---- Both searches on the CPU, with the kernels' explorer code ----

struct HostInc {
  std::int64_t in_force;
  std::int64_t held = tsp::kNoBound;
  std::vector<std::int32_t> tour;
  std::int64_t bound() const { return in_force; }
  void record(std::int64_t t, std::vector<std::int32_t> cities) {
    if (t >= held) return;
    held = t;
    tour = std::move(cities);
    in_force = std::min(in_force, t);
  }
};

struct IvmPolicy {
  HostInc& inc;
  std::int64_t bound() const { return inc.bound(); }
  void offer(std::int64_t t, const std::uint8_t* city, int k, int last) {
    std::vector<std::int32_t> c(city, city + k + 1);
    c.push_back(last);
    inc.record(t, std::move(c));
  }
  template <class CityAt>
  void offer_path(std::int64_t t, int count, CityAt city_at) {
    std::vector<std::int32_t> c;
    for (int i = 0; i < count; ++i) c.push_back(city_at(i));
    inc.record(t, std::move(c));
  }
};

struct Arcs {
  const tsp::Instance* x;
  std::int64_t operator()(int i, int j) const { return x->arc(i, j); }
};

struct EmulatedRun {
  std::uint64_t nodes = 0, phases = 0, steals = 0;
  std::int64_t cost = tsp::kNoBound;
  std::vector<std::int32_t> tour;
};

// The work-stealing phase exactly as the kernels do it: each empty explorer picks a victim
// among its hypercube neighbours longer than the mean (one try_select launch per dimension and
// neighbour), then takes the second half of the victim's interval (steal_work). Returns the
// number of steals.
std::uint64_t emulate_steal(bt::Intervals& s, const std::vector<std::uint64_t>& len,
                            std::uint64_t mean, int dims, std::uint32_t arity,
                            std::vector<bool>& fresh) {
  const auto T = static_cast<std::uint32_t>(len.size());
  std::uint64_t steals = 0;
  std::vector<int> victim(T, -1);
  std::vector<std::uint8_t> selected(T, 0);
  std::uint32_t stride = 1;
  for (int i = 0; i < dims; ++i, stride *= arity)
    for (std::uint32_t j = 1; j < arity; ++j)
      for (std::uint32_t t = 0; t < T; ++t) {  // one try_select launch
        if (len[t] != 0 || victim[t] >= 0) continue;
        const std::uint32_t v = bt::hypercube_neighbor(t, stride, arity, j);
        if (selected[v] || len[v] <= mean || len[v] < 2) continue;
        victim[t] = int(v);
        selected[v] = 1;
      }
  const bt::Intervals explored = s;
  for (std::uint32_t t = 0; t < T; ++t) {  // steal_work
    const int v = victim[t];
    if (v < 0) continue;
    const std::uint64_t split = bt::steal_split(s.pos[v], s.end[v]);
    s.pos[t] = split;
    s.end[t] = s.end[v];
    s.end[v] = split;
    fresh[t] = true;
    ++steals;
  }
  bt::check_steal_step(explored, s, victim);
  return steals;
}

// Algorithm 1 and 2 on the CPU: explorers take turns of `quantum` evaluations (the device's
// threads run concurrently; any interleaving must give the same count), an exploration phase
// ends once `trigger` explorers are empty, then the work-stealing phase exactly as the kernels
// do it, with the interval checks after every phase.
template <class Explorer = bt::IvmPacked<std::int64_t>>
EmulatedRun emulate_ivm(const tsp::Instance& x, std::int64_t bound, std::uint32_t T,
                        std::uint32_t arity, std::uint32_t trigger, int quantum) {
  EmulatedRun r;
  const int m = x.n - 1;
  if (!(0 < bound)) return r;
  r.nodes = 1;
  const std::uint64_t total = bt::factorial(m);
  std::uint64_t fact[bt::kIvmMaxFree + 1];
  for (int i = 0; i <= bt::kIvmMaxFree; ++i) fact[i] = bt::factorial(i);
  const int dims = *bt::hypercube_dims(T, arity);
  std::vector<Explorer> e(T);
  std::vector<bool> fresh(T, true);
  bt::Intervals s;
  for (std::uint32_t t = 0; t < T; ++t) {
    s.pos.push_back(bt::partition_begin(total, T, t));
    s.end.push_back(bt::partition_begin(total, T, t + 1));
  }
  bt::check_tiling(s, total);
  HostInc inc{bound};
  IvmPolicy policy{inc};
  const Arcs arcs{&x};
  for (;;) {
    const bt::Intervals before = s;
    std::vector<bool> done(T, false);
    std::uint32_t empty = 0;
    for (std::uint32_t t = 0; t < T; ++t) {
      if (fresh[t])
        bt::ivm_init(e[t], m, arcs, inc.bound(), s.pos[t], s.end[t]), fresh[t] = false;
      else
        e[t].pos = s.pos[t], e[t].end = s.end[t];
    }
    // Round-robin quanta until `trigger` explorers are empty (or all have stopped). Every
    // explorer gets its first quantum whatever the count (a thread reads the count only after
    // `poll` evaluations), so a phase always makes progress.
    bool any = true;
    for (bool first = true; (first || empty < trigger) && any; first = false) {
      any = false;
      for (std::uint32_t t = 0; t < T && (first || empty < trigger); ++t) {
        if (done[t]) continue;
        int left = quantum;
        const auto why =
            bt::ivm_explore(e[t], m, arcs, fact, policy, r.nodes, [&] { return left-- == 0; });
        if (why == bt::IvmStop::Empty)
          done[t] = true, ++empty;
        else
          any = true;
      }
    }
    for (std::uint32_t t = 0; t < T; ++t) s.pos[t] = e[t].pos;
    bt::check_explore_step(before, s);
    std::uint64_t sum = 0, active = 0;
    std::vector<std::uint64_t> len(T);
    for (std::uint32_t t = 0; t < T; ++t)
      len[t] = bt::interval_length(s.pos[t], s.end[t]), sum += len[t], active += len[t] > 0;
    if (active == 0) break;
    if (trigger >= T) continue;
    ++r.phases;
    r.steals += emulate_steal(s, len, sum / T, dims, arity, fresh);
  }
  r.cost = inc.held;
  r.tour = inc.tour;
  return r;
}

struct BpPolicy {
  HostInc& inc;
  std::int64_t bound() const { return inc.bound(); }
  void offer(std::int64_t t, const bt::BpFrame<std::int64_t>* f, int last_index, int last) {
    std::vector<std::int32_t> c;
    for (int i = 0; i <= last_index; ++i) c.push_back(f[i].city);
    c.push_back(last);
    inc.record(t, std::move(c));
  }
};

EmulatedRun emulate_bpdfs(const tsp::Instance& x, std::int64_t bound, int dcpu) {
  EmulatedRun r;
  const int depth = std::min(dcpu, x.n - 1);
  const bt::ActiveSet a = bt::bp_frontier(x, bound, depth);
  r.nodes = a.nodes;
  HostInc inc{bound};
  BpPolicy policy{inc};
  const std::uint32_t all = (1u << x.n) - 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    bt::BpFrame<std::int64_t> f[bt::kBpMaxCities];
    for (int k = 0; k < depth; ++k) f[k].city = a.cycles[i * depth + k];
    f[depth - 1].free = f[depth - 1].todo = all & ~a.bitsets[i];
    f[depth - 1].cost = a.costs[i];
    r.nodes += bt::bp_explore(Arcs{&x}, x.n, f, depth - 1, policy);
  }
  r.cost = inc.held;
  r.tour = inc.tour;
  return r;
}

struct Setting {
  std::uint32_t T, arity, trigger;
  int quantum;
};

TEST(EmulatedSearch, IvmCountsExactlyCpuDfsNodesAtTheOptimum) {
  const std::vector<Setting> settings = {{1, 2, 1, 5},   {8, 2, 1, 3},     {8, 2, 8, 100},
                                         {27, 3, 4, 7},  {64, 4, 1, 1},    {64, 8, 6, 17},
                                         {64, 8, 64, 9}, {256, 4, 25, 11}, {16, 2, 100, 4}};
  int cases = 0;
  for (const auto& kind : bt_test::kinds())
    for (int n = 2; n <= 10; ++n) {
      const tsp::Instance x = kind.make(n, bt_test::mix(std::uint64_t(n) * 131 + kind.name.size()));
      const auto ref = bt_test::reference(x);
      for (const auto& s : settings) {
        for (const bool packed : {true, false}) {
          const EmulatedRun r = packed ? emulate_ivm<bt::IvmPacked<std::int64_t>>(
                                             x, ref.optimum, s.T, s.arity, s.trigger, s.quantum)
                                       : emulate_ivm<bt::IvmExplorer<std::int64_t>>(
                                             x, ref.optimum, s.T, s.arity, s.trigger, s.quantum);
          const std::string what =
              kind.name + " n=" + std::to_string(n) + " T=" + std::to_string(s.T) +
              " trigger=" + std::to_string(s.trigger) + (packed ? " packed" : " matrix");
          ASSERT_EQ(r.nodes, ref.nodes) << what;
          ASSERT_EQ(r.cost, ref.found) << what;
          if (r.tour.empty()) continue;
          tsp::Solution sol{r.tour};
          const auto v = tsp::Problem::check(x, sol);
          ASSERT_TRUE(v.valid) << what << ": " << v.message;
          ASSERT_EQ(v.objective, ref.optimum) << what;
          ++cases;
        }
      }
    }
  EXPECT_GT(cases, 800);
}

// The packed explorer is the matrix explorer in another representation: from the same
// interval, stopped by the same tick budgets, both stand at the same position with the same
// nodes counted after every quantum, and stop for the same reason.
TEST(PackedExplorer, WalksInLockstepWithTheMatrixExplorer) {
  std::mt19937_64 rng(7);
  int quanta = 0;
  for (const auto& kind : bt_test::kinds())
    for (int n = 2; n <= 11; ++n) {
      const tsp::Instance x = kind.make(n, bt_test::mix(std::uint64_t(n) * 31 + kind.name.size()));
      const int m = n - 1;
      const std::uint64_t total = bt::factorial(m);
      std::uint64_t fact[bt::kIvmMaxFree + 1];
      for (int i = 0; i <= bt::kIvmMaxFree; ++i) fact[i] = bt::factorial(i);
      const std::int64_t opt = tsp::cpu::held_karp(x).cost;
      for (const std::int64_t bound : {opt, opt + 1 + opt / 8, tsp::kNoBound}) {
        for (int trial = 0; trial < 6; ++trial) {
          std::uint64_t b = rng() % total, e = rng() % (total + 1);
          if (b > e) std::swap(b, e);
          if (trial == 0) b = 0, e = total;
          HostInc inc_a{bound}, inc_b{bound};
          IvmPolicy pa{inc_a}, pb{inc_b};
          bt::IvmPacked<std::int64_t> a;
          bt::IvmExplorer<std::int64_t> w;
          bt::ivm_init(a, m, Arcs{&x}, inc_a.bound(), b, e);
          bt::ivm_init(w, m, Arcs{&x}, inc_b.bound(), b, e);
          ASSERT_EQ(a.pos, w.pos);
          std::uint64_t na = 0, nw = 0;
          for (;;) {
            const int q = int(rng() % 50);
            int la = q, lw = q;
            const auto ra =
                bt::ivm_explore(a, m, Arcs{&x}, fact, pa, na, [&] { return la-- == 0; });
            const auto rw =
                bt::ivm_explore(w, m, Arcs{&x}, fact, pb, nw, [&] { return lw-- == 0; });
            const std::string what = kind.name + " n=" + std::to_string(n) + " [" +
                                     std::to_string(b) + ", " + std::to_string(e) + ")";
            ASSERT_EQ(int(ra), int(rw)) << what;
            ASSERT_EQ(a.pos, w.pos) << what;
            ASSERT_EQ(na, nw) << what;
            ASSERT_EQ(inc_a.held, inc_b.held) << what;
            ASSERT_EQ(inc_a.tour, inc_b.tour) << what;
            ++quanta;
            if (ra == bt::IvmStop::Empty) break;
          }
        }
      }
    }
  EXPECT_GT(quanta, 5000);
}

TEST(PackedExplorer, PathFieldsRoundTrip) {
  std::uint64_t p0 = 0, p1 = 0;
  for (int j = 0; j <= bt::kIvmMaxFree; ++j) bt::set_path_city(p0, p1, j, (7 * j + 3) % 21);
  for (int j = 0; j <= bt::kIvmMaxFree; ++j)
    ASSERT_EQ(bt::path_city(p0, p1, j), (7 * j + 3) % 21) << j;
  bt::set_path_city(p0, p1, 11, 20);
  bt::set_path_city(p0, p1, 12, 19);
  EXPECT_EQ(bt::path_city(p0, p1, 11), 20);
  EXPECT_EQ(bt::path_city(p0, p1, 12), 19);
  EXPECT_EQ(bt::path_city(p0, p1, 10), (7 * 10 + 3) % 21);
  EXPECT_EQ(bt::path_city(p0, p1, 13), (7 * 13 + 3) % 21);
  EXPECT_EQ(bt::nth_set_bit(0b1011010u, 0), 1);
  EXPECT_EQ(bt::nth_set_bit(0b1011010u, 3), 6);
}

TEST(EmulatedSearch, IvmStealsAndFindsTheOptimumWithoutABound) {
  const tsp::Instance x = tsp::coin(10, tsp::CoinShape{}, 5);
  const auto ref = bt_test::reference(x);
  const EmulatedRun balanced = emulate_ivm(x, ref.optimum, 64, 4, 8, 50);
  EXPECT_EQ(balanced.nodes, ref.nodes);
  EXPECT_GT(balanced.phases, 0u);
  EXPECT_GT(balanced.steals, 0u);
  const EmulatedRun none = emulate_ivm(x, tsp::kNoBound, 64, 4, 8, 50);
  EXPECT_EQ(none.cost, ref.optimum);
  EXPECT_GE(none.nodes, ref.nodes);  // a looser start can only count more
  const EmulatedRun above = emulate_ivm(x, ref.optimum + 1, 8, 2, 1, 20);
  EXPECT_EQ(above.cost, ref.optimum);
  const EmulatedRun below = emulate_ivm(x, ref.optimum - 1, 8, 2, 1, 20);
  EXPECT_TRUE(below.tour.empty());
  EXPECT_EQ(below.nodes, tsp::cpu::dfs(x, ref.optimum - 1).nodes);
}

TEST(EmulatedSearch, BpdfsCountsExactlyCpuDfsNodesAtTheOptimum) {
  for (const auto& kind : bt_test::kinds())
    for (int n = 2; n <= 10; ++n) {
      const tsp::Instance x = kind.make(n, bt_test::mix(std::uint64_t(n) * 977 + kind.name.size()));
      const auto ref = bt_test::reference(x);
      for (int dcpu : {1, 2, 3, 7, 32}) {
        const EmulatedRun r = emulate_bpdfs(x, ref.optimum, dcpu);
        ASSERT_EQ(r.nodes, ref.nodes) << kind.name << " n=" << n << " dcpu=" << dcpu;
        ASSERT_EQ(r.cost, ref.found) << kind.name << " n=" << n << " dcpu=" << dcpu;
        if (!r.tour.empty()) ASSERT_TRUE(tsp::Problem::check(x, tsp::Solution{r.tour}).valid);
      }
    }
}

TEST(Params, NamedErrors) {
  bt::IvmConfig c;
  EXPECT_NO_THROW(bt::validate(c));
  EXPECT_EQ(bt::ivm_dims(c), 6);  // 262144 = 8^6
  EXPECT_EQ(bt::effective_trigger(c), 26214);
  EXPECT_EQ(bt::parse_ivm_state("matrix"), bt::IvmState::Matrix);
  try {
    bt::parse_ivm_state("shared");
    FAIL();
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'state' = 'shared'"), std::string::npos) << e.what();
  }
  c.explorers = 1000;
  try {
    bt::validate(c);
    FAIL();
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'explorers' = 1000"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'arity' = 8"), std::string::npos) << e.what();
  }
  c = {};
  c.block = 100;
  EXPECT_THROW(bt::validate(c), dpgpu::InputError);
  bt::BpdfsConfig b;
  b.dcpu = 0;
  EXPECT_THROW(bt::validate(b), dpgpu::InputError);
  b = {};
  b.poll = 0;
  EXPECT_THROW(bt::validate(b), dpgpu::InputError);
}

TEST(Params, BothSolversRegistered) {
  for (const char* name : {"gpu.ivm", "gpu.bpdfs"}) {
    const auto* s = dpgpu::Registry::get().solver("tsp", name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_NE(s->schema.find("initial_ub"), nullptr);
  }
  EXPECT_NE(dpgpu::Registry::get().solver("tsp", "gpu.ivm")->schema.find("trigger"), nullptr);
  EXPECT_NE(dpgpu::Registry::get().solver("tsp", "gpu.bpdfs")->schema.find("dcpu"), nullptr);
}

// What `dpgpu check` asks of both registrations before anything runs (no GPU needed): the
// parameters' rules, the rules with the instance, the optimum they need, their work.
TEST(Params, RegisteredRulesAreCheckedBeforeRunning) {
  auto& r = dpgpu::Registry::get();
  const dpgpu::SolverEntry* ivm = r.solver("tsp", "gpu.ivm");
  const dpgpu::SolverEntry* bp = r.solver("tsp", "gpu.bpdfs");
  ASSERT_NE(ivm, nullptr);
  ASSERT_NE(bp, nullptr);
  try {
    ivm->schema.resolve({{"explorers", std::int64_t{1000}}});
    FAIL() << "explorers 1000 with arity 8 accepted";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("'explorers' = 1000 is not a power of parameter 'arity' = 8"),
        std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(
      ivm->schema.resolve({{"explorers", std::int64_t{1000}}, {"arity", std::int64_t{10}}}));
  EXPECT_THROW(bp->schema.resolve({{"block", std::int64_t{48}}}), dpgpu::InputError);
  EXPECT_THROW(bp->schema.resolve({{"initial_ub", std::string("best")}}), dpgpu::InputError);

  auto instance = [](int n, bool with_optimum) {
    tsp::Instance x = tsp::amat(n, 1, 9, 1);
    if (!with_optimum)
      x.optimum.reset();
    else
      x.optimum = 1000;
    return dpgpu::erase_instance<tsp::Problem>({"x", x, x.optimum});
  };
  const auto none = ivm->schema.resolve({{"initial_ub", std::string("none")}});
  EXPECT_FALSE(ivm->check_instance(none, instance(21, false)));
  const auto n22 = ivm->check_instance(none, instance(22, false));
  ASSERT_TRUE(n22.has_value());
  EXPECT_NE(n22->find("n = 22 cities; at most 21"), std::string::npos) << *n22;
  EXPECT_FALSE(bp->check_instance(bp->schema.resolve({{"initial_ub", std::string("none")}}),
                                  instance(32, false)));
  EXPECT_TRUE(bp->check_instance(bp->schema.resolve({{"initial_ub", std::string("none")}}),
                                 instance(33, false)));

  const auto optimal = ivm->schema.resolve({});  // initial_ub: optimal
  EXPECT_TRUE(ivm->needs_optimum(optimal));
  EXPECT_FALSE(ivm->needs_optimum(none));
  const auto missing = ivm->check_instance(optimal, instance(10, false));
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("no known optimum"), std::string::npos) << *missing;
  EXPECT_FALSE(ivm->check_instance(optimal, instance(10, true)));
  const auto low = ivm->check_instance(ivm->schema.resolve({{"initial_ub", std::string("999")}}),
                                       instance(10, true));
  ASSERT_TRUE(low.has_value());
  EXPECT_NE(low->find("'initial_ub' = 999 is below"), std::string::npos) << *low;
  EXPECT_NE(low->find("optimum 1000"), std::string::npos) << *low;

  EXPECT_EQ(ivm->work_counter, "nodes");
  EXPECT_EQ(bp->work_counter, "nodes");
}

}  // namespace
