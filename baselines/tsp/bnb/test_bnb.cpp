// cpu.bnb: its parts (edge decisions, 1-trees, the first tour), its optimum against Held-Karp
// and against the published optima of the shared TSPLIB files, its refusals, its deadline,
// and the solver as the harness finds it.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "bnb.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "dpgpu/shared_data.hpp"
#include "ascent.hpp"
#include "edge_states.hpp"
#include "elimination.hpp"
#include "one_tree.hpp"
#include "registered_solve.hpp"
#include "tsp/atsp_classes.hpp"
#include "tsp/generators.hpp"
#include "tsp/reference.hpp"
#include "tsp_cpu.hpp"
#include "upper_bound.hpp"

namespace {

using tsp::cpu::bnb::Edge;
using tsp::cpu::bnb::EdgeStates;

// A symmetric matrix with no triangle inequality: random_matrix's upper triangle, mirrored.
tsp::Instance mirrored(int n, std::uint64_t seed) {
  auto x = tsp::random_matrix(n, 1, 1000, seed);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) x.dist[std::size_t(i) * n + j] = x.arc(j, i);
  return tsp::make_instance(n, x.dist, "mirrored");
}

void expect_optimal_tour(const tsp::Instance& x, const tsp::cpu::bnb::Result& r,
                         std::int64_t optimum, const std::string& what) {
  EXPECT_EQ(r.cost, optimum) << what;
  const auto v = tsp::Problem::check(x, {r.tour});
  EXPECT_TRUE(v.ok) << what << ": " << v.message;
  EXPECT_EQ(v.objective, r.cost) << what;
  if (r.first_tour > 0) {
    EXPECT_GE(r.first_tour, r.cost) << what;
  }
  EXPECT_LE(r.root_bound, double(r.cost) + 1e-6) << what;
}

TEST(TspBnbEdges, TwoIncludedEdgesExcludeTheRestOfTheCity) {
  EdgeStates s(6);
  ASSERT_TRUE(s.include(0, 1));
  ASSERT_TRUE(s.include(0, 2));
  for (int u = 3; u < 6; ++u) EXPECT_EQ(s.at(0, u), Edge::excluded) << u;
  EXPECT_EQ(s.at(1, 2), Edge::excluded);  // 1-0-2 closed would be a subtour of 3 cities
  EXPECT_EQ(s.at(2, 1), Edge::excluded);
  EXPECT_EQ(s.included_degree(0), 2);
  EXPECT_FALSE(s.include(0, 3));  // excluded already: the node has no tour
  EXPECT_FALSE(s.feasible());
}

TEST(TspBnbEdges, APathOfEveryCityIsClosed) {
  EdgeStates s(4);
  ASSERT_TRUE(s.include(0, 1));
  ASSERT_TRUE(s.include(1, 2));
  EXPECT_EQ(s.at(0, 2), Edge::excluded);
  ASSERT_TRUE(s.include(2, 3));
  EXPECT_EQ(s.at(3, 0), Edge::included);  // the path holds every city: the tour is decided
  EXPECT_EQ(s.at(1, 3), Edge::excluded);
  for (int v = 0; v < 4; ++v) EXPECT_EQ(s.included_degree(v), 2) << v;
}

TEST(TspBnbEdges, TwoEdgesLeftAreIncludedAndFewerIsInfeasible) {
  EdgeStates s(5);
  ASSERT_TRUE(s.exclude(0, 1));
  ASSERT_TRUE(s.exclude(0, 2));  // 0 keeps 0-3 and 0-4 only: both in every tour
  EXPECT_EQ(s.at(0, 3), Edge::included);
  EXPECT_EQ(s.at(0, 4), Edge::included);
  EXPECT_EQ(s.at(3, 4), Edge::excluded);  // 3-0-4 closed: a subtour
  EXPECT_FALSE(s.exclude(0, 3));          // contradicts an included edge
  EdgeStates t(5);
  ASSERT_TRUE(t.include(1, 2));
  ASSERT_TRUE(t.include(2, 3));
  ASSERT_TRUE(t.include(3, 4));  // the path 1-2-3-4: 1-4 excluded, 0 keeps 0-1 and 0-4
  EXPECT_EQ(t.at(1, 4), Edge::excluded);
  EXPECT_EQ(t.at(0, 1), Edge::included);
  EXPECT_EQ(t.at(0, 4), Edge::included);
  EXPECT_TRUE(t.feasible());
}

// A 5-city matrix by hand: city 0 far off (arcs 50, 50, 60, 60), cities 1..4 a square of
// side 10 (diagonals 14).
TEST(TspBnbOneTree, LeastOneTreeAndItsTour) {
  const std::vector<std::int64_t> d = {0,  50, 50, 60, 60,  //
                                       50, 0,  10, 14, 10,  //
                                       50, 10, 0,  10, 14,  //
                                       60, 14, 10, 0,  10,  //
                                       60, 10, 14, 10, 0};
  const auto x = tsp::make_instance(5, d, "square");
  tsp::cpu::bnb::OneTreeBuilder b(x);
  tsp::cpu::bnb::OneTree t;
  std::vector<double> pi(5, 0.0);
  EdgeStates s(5);
  b.build(s, pi, t);
  ASSERT_TRUE(t.spans);
  EXPECT_DOUBLE_EQ(t.length, 30 + 50 + 50);  // three sides of the square; 0-1 and 0-2
  EXPECT_EQ(t.degree[0], 2);
  ASSERT_TRUE(s.exclude(0, 2));
  ASSERT_TRUE(s.exclude(1, 3));
  ASSERT_TRUE(s.exclude(2, 4));
  b.build(s, pi, t);
  EXPECT_DOUBLE_EQ(t.length, 30 + 50 + 60);  // 0-1, then 0-3 or 0-4 at 60
  // Leave every city two edges: the tour 0-1-2-3-4-0 (140) is forced, whatever the penalties.
  ASSERT_TRUE(s.exclude(0, 3));
  EXPECT_EQ(s.at(1, 4), Edge::excluded);  // decided by the propagation (edge_states.hpp)
  for (const auto& [i, j] : {std::pair{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}})
    EXPECT_EQ(s.at(i, j), Edge::included) << i << "-" << j;
  pi = {3, -2, 5, 1, 7};
  b.build(s, pi, t);
  EXPECT_NEAR(t.length, 140, 1e-9);
  for (int v = 0; v < 5; ++v) EXPECT_EQ(t.degree[v], 2) << v;
  const auto tour = tsp::cpu::bnb::tour_of(t);
  EXPECT_EQ(tsp::tour_cost(x, tour), 140);
  EXPECT_TRUE(tsp::Problem::check(x, {tour}).ok);
  EXPECT_TRUE(s.exclude(1, 3));   // deciding again the same way changes nothing
  EXPECT_FALSE(s.exclude(0, 1));  // the other way: no tour left
  // Cities {1, 2, 3} cut off from {4, 5, 6}: each keeps three edges, but no tree spans them
  // without city 0 (and no tour crosses twice through one city).
  const auto seven = tsp::euclidean(7, 1000, 1);
  tsp::cpu::bnb::OneTreeBuilder b7(seven);
  EdgeStates cut(7);
  for (int i = 1; i <= 3; ++i)
    for (int j = 4; j <= 6; ++j) ASSERT_TRUE(cut.exclude(i, j));
  b7.build(cut, std::vector<double>(7, 0.0), t);
  EXPECT_FALSE(t.spans);
}

// Reduced-cost elimination at the root keeps every edge of a tour that beats ub (an optimal
// tour, found without elimination, with ub one above it) and excludes others. 40 cities: the
// root's bound leaves a gap there (at 14 it mostly settles the instance).
TEST(TspBnbElimination, KeepsTheEdgesOfABetterTour) {
  int excluded = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto x = tsp::euclidean(40, 1000, seed);
    const auto best = tsp::cpu::bnb::branch_and_bound(x, {1000, 20, 16, false});
    EdgeStates s(x.n);
    tsp::cpu::bnb::OneTreeBuilder trees(x);
    std::vector<double> pi(40, 0.0);
    const auto b = tsp::cpu::bnb::ascend(trees, s, pi, best.cost + 1, {1000, 2.0, 20});
    if (b.verdict != tsp::cpu::bnb::Verdict::open) continue;  // the root settled it
    excluded += tsp::cpu::bnb::eliminate_edges(x, b.tree, pi, b.bound, best.cost + 1, s);
    ASSERT_TRUE(s.feasible()) << seed;
    for (int k = 0; k < x.n; ++k)
      EXPECT_NE(s.at(best.tour[k], best.tour[(k + 1) % x.n]), Edge::excluded) << seed;
  }
  EXPECT_GT(excluded, 0);
}

// Tour lengths are integers: a bound above ub − 1 leaves no better tour. The margin for the
// doubles' rounding must stay far below one unit at the lengths tsmat reaches (~10^7, with
// penalties of ~10^5 per city), or no node is pruned until its bound reaches ub itself.
TEST(TspBnbPrune, MarginIsFarBelowOneUnit) {
  using tsp::cpu::bnb::cannot_beat;
  const std::vector<double> pi(100, 1e5);
  const std::int64_t ub = 20'000'000;
  EXPECT_TRUE(cannot_beat(double(ub) - 0.99, ub, pi));
  EXPECT_TRUE(cannot_beat(double(ub), ub, pi));
  EXPECT_FALSE(cannot_beat(double(ub) - 1, ub, pi));  // a tour of ub − 1 may exist
  EXPECT_FALSE(cannot_beat(double(ub) - 1.0000001, ub, std::vector<double>(100, 0.0)));
  EXPECT_TRUE(cannot_beat(10.5, 11, {0.0, 0.0, 0.0}));
  EXPECT_FALSE(cannot_beat(9.9, 11, {0.0, 0.0, 0.0}));
}

TEST(TspBnbFirstTour, ImprovementPassesNeverLengthenATour) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto x = tsp::euclidean(30, 1000, seed);
    std::vector<std::int32_t> tour(30);
    for (int i = 0; i < 30; ++i) tour[i] = (i * 7) % 30;  // a poor tour: every 7th city
    const auto before = tsp::tour_cost(x, tour);
    EXPECT_TRUE(tsp::cpu::bnb::two_opt_pass(x, tour));
    EXPECT_LT(tsp::tour_cost(x, tour), before);
    const auto after_two_opt = tsp::tour_cost(x, tour);
    tsp::cpu::bnb::or_opt_pass(x, tour);
    EXPECT_LE(tsp::tour_cost(x, tour), after_two_opt);
    EXPECT_TRUE(tsp::Problem::check(x, {tour}).ok);
    EXPECT_EQ(tour[0], 0);
  }
}

// Without a first tour (starts 0) the search finds every tour itself: the heuristic alone is
// often optimal at these sizes and would hide a search that loses part of the tree.
TEST(TspBnb, EqualsHeldKarpOnRandomSymmetricInstances) {
  int instances = 0;
  const tsp::cpu::bnb::Options with_first_tour{}, without{1000, 20, 0},
      no_elimination{1000, 20, 16, false};
  for (int n = 4; n <= 14; ++n)
    for (std::uint64_t seed = 1; seed <= 4; ++seed)
      for (const auto& x : {tsp::euclidean(n, 1000, seed), tsp::tsmat(n, 0, 1000, seed),
                            mirrored(n, seed), tsp::euclidean(n, 10, seed)}) {
        const auto optimum = tsp::cpu::held_karp(x).cost;
        const auto what = x.name + " n=" + std::to_string(n) + " seed " + std::to_string(seed);
        for (const auto& o : {with_first_tour, without, no_elimination})
          expect_optimal_tour(x, tsp::cpu::bnb::branch_and_bound(x, o), optimum,
                              what + " starts " + std::to_string(o.starts) + " steps " +
                                  std::to_string(o.node_steps));
        ++instances;
      }
  EXPECT_EQ(instances, 11 * 4 * 4);
}

TEST(TspBnb, ShortAscentsStillReachTheOptimum) {
  // One step everywhere, no first tour: a weak bound, many nodes, the same answer.
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto x = tsp::euclidean(12, 1000, seed);
    const auto r = tsp::cpu::bnb::branch_and_bound(x, {1, 1, 0});
    EXPECT_GT(r.nodes, 10u);
    expect_optimal_tour(x, r, tsp::cpu::held_karp(x).cost,
                        "euclidean-12 seed " + std::to_string(seed));
    EXPECT_GE(r.evaluations, r.nodes);
  }
}

TEST(TspBnb, TinyInstances) {
  for (int n = 1; n <= 3; ++n) {
    const auto x = tsp::euclidean(n, 100, 3);
    expect_optimal_tour(x, tsp::cpu::bnb::branch_and_bound(x, {}), tsp::brute_force(x).cost,
                        "n=" + std::to_string(n));
  }
}

TEST(TspBnb, AsymmetricInstancesAreRefused) {
  const auto x = tsp::random_matrix(8, 1, 1000, 2);
  ASSERT_FALSE(x.symmetric);
  const auto why = tsp::cpu::bnb::why_not(x);
  EXPECT_NE(why.find("symmetric instances only"), std::string::npos) << why;
  EXPECT_THROW(tsp::cpu::bnb::branch_and_bound(x, {}), std::invalid_argument);
  EXPECT_EQ(tsp::cpu::bnb::why_not(tsp::euclidean(8, 1000, 2)), "");
}

// The symmetric files of the shared folder with their published optimum (OPTIMA.tsv), 14 to
// 52 cities; each takes well under a second here.
class TspBnbShared : public testing::TestWithParam<const char*> {};

TEST_P(TspBnbShared, ReachesThePublishedOptimum) {
  const auto dir = dpgpu::shared_data_dir("tsplib");
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  const auto loaded = tsp::Problem::load({{dir / GetParam()}, ""}).at(0);
  ASSERT_TRUE(loaded.known_optimum.has_value()) << GetParam();
  const auto& x = loaded.instance;
  expect_optimal_tour(x, tsp::cpu::bnb::branch_and_bound(x, {}), *loaded.known_optimum, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Symmetric, TspBnbShared,
                         testing::Values("burma14.tsp", "ulysses16.tsp", "gr17.tsp", "gr21.tsp",
                                         "ulysses22.tsp", "gr24.tsp", "fri26.tsp", "bayg29.tsp",
                                         "bays29.tsp", "dantzig42.tsp", "swiss42.tsp", "att48.tsp",
                                         "gr48.tsp", "hk48.tsp", "eil51.tsp", "berlin52.tsp"),
                         [](const auto& info) {
                           const std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

using Clock = dpgpu::Context::Clock;

dpgpu::AnyInstance erased(tsp::Instance x) {
  auto name = x.name;
  return dpgpu::erase_instance<tsp::Problem>({name, std::move(x), std::nullopt});
}

TEST(TspBnbRegistered, SolvesWithDeclaredCountersAndACheckedTour) {
  const auto& s = baseline_test::registered("tsp", "cpu.bnb");
  EXPECT_EQ(s.schema.resolve({}).integer("node_steps"), 20);
  EXPECT_THROW(s.schema.resolve({{"root_steps", std::int64_t{0}}}), dpgpu::InputError);
  auto* problem = dpgpu::Registry::get().problem("tsp");
  ASSERT_NE(problem, nullptr);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto instance = tsp::euclidean(40, 1000, seed);
    const auto x = erased(instance);
    dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
    const auto out = baseline_test::solve_with_defaults(s, x, ctx);
    EXPECT_EQ(out.objective, tsp::cpu::bnb::branch_and_bound(instance, {}).cost);
    const auto verdict = problem->check(x, out);
    ASSERT_TRUE(verdict.has_value());
    EXPECT_TRUE(verdict->ok) << verdict->message;
    EXPECT_EQ(verdict->objective, out.objective);
    const auto& c = ctx.counters();
    EXPECT_GE(c.at("nodes"), 1);
    EXPECT_GE(c.at("bound_evaluations"), c.at("nodes"));
    EXPECT_GE(c.at("first_tour"), double(out.objective));
    EXPECT_GE(c.at("root_gap"), 0);
    EXPECT_LT(c.at("root_gap"), 0.05);
    EXPECT_EQ(ctx.phase_seconds().count("compute"), 1u);
  }
}

TEST(TspBnbRegistered, RefusesAsymmetricInstancesBeforeAndDuringTheRun) {
  const auto& s = baseline_test::registered("tsp", "cpu.bnb");
  const auto x = erased(tsp::random_matrix(10, 1, 1000, 4));
  const auto why = s.check_instance(s.schema.resolve({}), x);  // what `dpgpu check` says
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("symmetric instances only"), std::string::npos) << *why;
  dpgpu::Context ctx(dpgpu::Backend::Cpu, Clock::now() + std::chrono::hours(1));
  EXPECT_THROW(s.solve(x, s.schema.resolve({}), ctx), dpgpu::InputError);
  EXPECT_FALSE(s.check_instance(s.schema.resolve({}), erased(tsp::euclidean(10, 1000, 4))));
}

TEST(TspBnbRegistered, StopsAtItsDeadline) {
  // 150 random points take minutes; the case's deadline stops the search within a poll
  // (~4M units of 1-tree work, milliseconds), as dpgpu::Timeout, which a run records as timeout.
  const auto& s = baseline_test::registered("tsp", "cpu.bnb");
  const auto x = erased(tsp::euclidean(150, 1000, 1));
  const auto start = Clock::now();
  dpgpu::Context ctx(dpgpu::Backend::Cpu, start + std::chrono::milliseconds(300));
  EXPECT_THROW(s.solve(x, s.schema.resolve({}), ctx), dpgpu::Timeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  dpgpu::Context late(dpgpu::Backend::Cpu, start - std::chrono::seconds(1));
  EXPECT_THROW(s.solve(x, s.schema.resolve({}), late), dpgpu::Timeout);
}

}  // namespace
