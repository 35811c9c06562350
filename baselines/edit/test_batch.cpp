// The batch solvers through the registry: cpu.dp and cpu.edlib over edit_batch agree pair by
// pair (the checksum) and pass the check; cpu.bitparallel over lcs_batch passes its check.
#include <gtest/gtest.h>

#include <chrono>

#include "dpgpu/registry.hpp"
#include "registered_solve.hpp"

namespace {

dpgpu::AnyOutcome solve(const std::string& problem, const std::string& solver,
                        const dpgpu::AnyInstance& x) {
  const auto& s = baseline_test::registered(problem, solver);
  dpgpu::Context ctx(dpgpu::Backend::Cpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
  return baseline_test::solve_with_defaults(s, x, ctx);
}

dpgpu::AnyInstance generate(const std::string& problem, const std::string& generator,
                            const dpgpu::ValueMap& params) {
  auto* g = dpgpu::Registry::get().problem(problem)->generator(generator);
  return g->make(g->schema.resolve(params), 5);
}

TEST(EditBatchBaselines, DpAndEdlibAgreeOnEveryPairInBothShapes) {
  for (const auto& [gen, params] : std::vector<std::pair<std::string, dpgpu::ValueMap>>{
           {"random", {{"pairs", std::int64_t{200}}, {"n", std::int64_t{150}}, {"spread", 0.9}}},
           {"mutated", {{"pairs", std::int64_t{100}}, {"n", std::int64_t{300}}}},
           {"cross", {{"strings", std::int64_t{15}}, {"n", std::int64_t{80}}}}}) {
    const auto x = generate("edit_batch", gen, params);
    const auto dp = solve("edit_batch", "cpu.dp", x);
    auto* p = dpgpu::Registry::get().problem("edit_batch");
    const auto v = p->check(x, dp);
    ASSERT_TRUE(v && v->ok) << gen << ": " << (v ? v->message : "no verdict");
    EXPECT_EQ(v->objective, dp.objective);
    ASSERT_TRUE(dp.checksum);
    if (!baseline_test::registered("edit_batch", "cpu.edlib").unavailable.empty()) continue;
    const auto ed = solve("edit_batch", "cpu.edlib", x);
    EXPECT_EQ(ed.objective, dp.objective) << gen;
    EXPECT_EQ(ed.checksum, dp.checksum) << gen;
  }
}

TEST(LcsBatchBaselines, BitparallelPassesTheCheck) {
  const auto x =
      generate("lcs_batch", "random", {{"pairs", std::int64_t{100}}, {"n", std::int64_t{200}}});
  const auto out = solve("lcs_batch", "cpu.bitparallel", x);
  const auto v = dpgpu::Registry::get().problem("lcs_batch")->check(x, out);
  ASSERT_TRUE(v && v->ok) << (v ? v->message : "no verdict");
  EXPECT_EQ(v->objective, out.objective);
  EXPECT_GT(out.objective, 0);
}

}  // namespace
