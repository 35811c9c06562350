// cpu.edlib and cpu.dp against the reference: distances and scripts on random, planted and
// mutated pairs, directly and through the registry.
#include <gtest/gtest.h>

#include <random>

#include "dpgpu/test_seed.hpp"
#include "edit/edit.hpp"
#include "edit/edit_cpu.hpp"
#include "edit/generators.hpp"
#include "edit/reference.hpp"
#include "registered_solve.hpp"

namespace {

#define REQUIRE_EDLIB() \
  if (!edit::cpu::have_edlib()) GTEST_SKIP() << "dpgpu was built without libedlib"

void expect_edlib_agrees(const edit::Instance& x, std::int64_t expected) {
  EXPECT_EQ(edit::cpu::edlib_distance(x.a, x.b), expected);
  auto v = edit::Problem::check(x, {edit::cpu::edlib_script(x.a, x.b)});
  ASSERT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, expected);
}

TEST(EditEdlib, SmallAndEmptyPairs) {
  REQUIRE_EDLIB();
  expect_edlib_agrees({"kitten", "sitting"}, 3);
  expect_edlib_agrees({"", "abc"}, 3);
  expect_edlib_agrees({"abc", ""}, 3);
  expect_edlib_agrees({"", ""}, 0);
  expect_edlib_agrees({"ACGT", "ACGT"}, 0);
}

TEST(EditEdlib, AgreesWithTheReferenceOnRandomPlantedAndMutatedPairs) {
  REQUIRE_EDLIB();
  const auto seed = dpgpu::base_seed();
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 40; ++t) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t));
    const auto n = std::int64_t(rng() % 400), m = std::int64_t(rng() % 400);
    const auto r = edit::random_pair(n, m, 1 + int(rng() % 20), rng());
    expect_edlib_agrees(r, edit::reference_distance(r.a, r.b));
    const auto p = edit::planted_pair(n, 4, std::int64_t(rng() % (n + 1)), 0.5, rng());
    expect_edlib_agrees(p.instance, p.distance);
    const auto u = edit::mutated_pair(n, 4, 0.15, rng());
    expect_edlib_agrees(u, edit::reference_distance(u.a, u.b));
  }
}

TEST(EditEdlib, AnyByteValue) {
  REQUIRE_EDLIB();
  const auto x = edit::random_pair(300, 280, 256, 9);
  expect_edlib_agrees(x, edit::reference_distance(x.a, x.b));
}

// Both solvers through the registry, with and without the script, on a planted pair.
TEST(EditBaselines, RegisteredSolversGiveThePlantedDistance) {
  auto* problem = dpgpu::Registry::get().problem("edit");
  ASSERT_NE(problem, nullptr);
  auto* gen = problem->generator("planted");
  const auto x = gen->make(gen->schema.resolve({{"n", std::int64_t{500}}}), 3);
  for (const char* name : {"cpu.dp", "cpu.edlib"}) {
    const auto& s = baseline_test::registered("edit", name);
    if (!s.unavailable.empty()) {
      EXPECT_NE(s.unavailable.find("libedlib"), std::string::npos) << s.unavailable;
      continue;
    }
    for (bool script : {false, true}) {
      dpgpu::Context ctx(dpgpu::Backend::Cpu,
                         std::chrono::steady_clock::now() + std::chrono::hours(1));
      ctx.begin();
      auto out = s.solve(x, s.schema.resolve({{"script", script}}), ctx);
      ctx.end();
      EXPECT_EQ(out.objective, *x.known_optimum) << name;
      EXPECT_EQ(bool(out.solution), script) << name;
      if (script) {
        auto v = problem->check(x, out);
        ASSERT_TRUE(v && v->ok) << name << ": " << (v ? v->message : "no verdict");
        EXPECT_EQ(v->objective, *x.known_optimum);
      }
    }
  }
}

}  // namespace
