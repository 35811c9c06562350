// peer.stringzilla_cpu through the registry: it refuses independent pairs, says what to
// install where the package is missing, and where it is present every pair of a cross batch
// equals the reference and the row's time is the library call the worker timed.
#include <gtest/gtest.h>

#include <chrono>

#include "dpgpu/registry.hpp"
#include "edit/batch.hpp"
#include "edit/reference.hpp"
#include "stringzilla_peer.hpp"

namespace {

dpgpu::AnyInstance generate(const std::string& generator, const dpgpu::ValueMap& params) {
  auto* g = dpgpu::Registry::get().problem("edit_batch")->generator(generator);
  return g->make(g->schema.resolve(params), 3);
}

const dpgpu::SolverEntry& peer() {
  auto* s = dpgpu::Registry::get().solver("edit_batch", "peer.stringzilla_cpu");
  if (!s) throw std::runtime_error("peer.stringzilla_cpu is not registered");
  return *s;
}

TEST(StringZillaPeer, RefusesIndependentPairs) {
  const auto x = generate("random", {{"pairs", std::int64_t{10}}, {"n", std::int64_t{20}}});
  const auto why = peer().check_instance(peer().schema.resolve({}), x);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("cross shape"), std::string::npos) << *why;
}

TEST(StringZillaPeer, SaysWhatToInstallOrAgreesWithTheReference) {
  const std::string missing = dpgpu::myers::stringzilla_unavailable("cpu");
  const auto x = generate("cross", {{"strings", std::int64_t{12}}, {"n", std::int64_t{90}}});
  const auto why = peer().check_instance(peer().schema.resolve({}), x);
  if (!missing.empty()) {
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("pip install stringzillas-cpus"), std::string::npos) << *why;
    GTEST_SKIP() << "StringZilla's CPU package is not installed: " << missing;
  }
  ASSERT_FALSE(why) << *why;
  dpgpu::Context ctx(dpgpu::Backend::Cpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
  ctx.begin();
  const auto out = peer().solve(x, peer().schema.resolve({}), ctx);
  ctx.end();
  const auto& b = x.as<edit::BatchInstance>();
  const auto& d = static_cast<const edit::BatchSolution*>(out.solution.get())->distances;
  ASSERT_EQ(d.size(), b.pairs());
  for (std::size_t k = 0; k < d.size(); ++k)
    ASSERT_EQ(d[k], edit::reference_distance(b.a[b.a_of(k)], b.b[b.b_of(k)])) << "pair " << k;
  EXPECT_GT(ctx.counters().at("worker_s"), ctx.elapsed_s());  // the row's time: the call alone
}

}  // namespace
