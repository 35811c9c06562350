// Every solver that can run here, run once on a small instance of its problem: it sets only the
// counters its registration declares (set ⊆ declared, as measure.cpp enforces on every run),
// with values their kind allows (finite, not negative; a ratio within [0, 1]). On a machine
// with a GPU the GPU solvers run too (elsewhere they are unavailable and skipped), so this is
// the one test that checks the GPU strategies' declarations against what they set.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/gpu_presence.hpp"
#include "dpgpu/registry.hpp"

namespace {

using dpgpu::Value;

struct Small {
  std::string generator;
  dpgpu::ValueMap params;
};

// A small instance of each problem (a new problem needs a line here: the test says so).
const std::map<std::string, Small>& small_instances() {
  static const std::map<std::string, Small> m{
      {"knapsack",
       {"uncorrelated", {{"n", Value(std::int64_t{12})}, {"R", Value(std::int64_t{50})}}}},
      {"edit", {"random", {{"n", Value(std::int64_t{48})}}}},
      {"edit_batch",
       {"random", {{"pairs", Value(std::int64_t{20})}, {"n", Value(std::int64_t{40})}}}},
      {"lcs", {"random", {{"n", Value(std::int64_t{48})}}}},
      {"lcs_batch",
       {"random", {{"pairs", Value(std::int64_t{20})}, {"n", Value(std::int64_t{40})}}}},
      {"mcm", {"random", {{"n", Value(std::int64_t{12})}}}},
      {"sdp", {"consecutive", {{"n", Value(std::int64_t{256})}, {"k", Value(std::int64_t{4})}}}},
      {"tsp", {"random_matrix", {{"n", Value(std::int64_t{8})}}}},
  };
  return m;
}

dpgpu::AnyInstance instance_for(const dpgpu::ProblemEntry& p, const Small& small) {
  const dpgpu::GeneratorEntry* g = p.generator(small.generator);
  if (!g) throw std::logic_error("no generator " + small.generator);
  return g->make(g->schema.resolve(small.params), 7);
}

// What the counter's kind allows of its value, or "" when it is fine.
std::string value_problem(const dpgpu::CounterSpec* spec, double v) {
  if (!std::isfinite(v)) return "not finite";
  if (v < 0) return "negative";
  if (spec && spec->kind == dpgpu::CounterKind::Ratio && v > 1) return "a ratio above 1";
  return "";
}

// Runs the solver on x with its defaults; "" when it ran, else why it did not.
std::string run_and_check(const dpgpu::ProblemEntry& p, const dpgpu::SolverEntry& s,
                          dpgpu::AnyInstance x, const std::string& name) {
  const dpgpu::Params params = s.schema.resolve({});
  if (s.needs_optimum && s.needs_optimum(params) && !x.known_optimum && p.reference_optimum)
    if (auto opt = p.reference_optimum(x)) x = p.with_optimum(x, *opt);  // as the planner does
  if (auto why = s.check_instance(params, x)) return *why;
  if (auto why = s.check_device(params, x)) return *why;
  dpgpu::Context ctx(s.backend, dpgpu::Context::Clock::now() + std::chrono::minutes(2));
  try {
    ctx.begin();
    s.solve(x, params, ctx);
    ctx.end();
  } catch (const dpgpu::InputError& e) {  // refused at run time (a rule the planner would say)
    return std::string("input error: ") + e.what();
  } catch (const dpgpu::GpuUnavailable& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << name << ": threw on a small instance: " << e.what();
    return "";
  }
  std::map<std::string, double> set = ctx.counters();
  if (ctx.device_peak() > 0) set["peak_device_bytes"] = double(ctx.device_peak());
  if (auto why = s.undeclared_counter(set)) ADD_FAILURE() << name << ": " << *why;
  for (const auto& [counter, v] : set) {
    const dpgpu::CounterSpec* spec = dpgpu::find_counter(s.counters, counter);
    if (!spec) spec = dpgpu::find_counter(dpgpu::harness_counters(), counter);
    const std::string bad = value_problem(spec, v);
    EXPECT_EQ(bad, "") << name << ": counter " << counter << " = " << v;
  }
  return "";
}

}  // namespace

TEST(RegistryCounters, EveryRunnableSolverSetsOnlyDeclaredCounters) {
  std::size_t ran = 0, gpu_skipped = 0;
  const std::string no_gpu = dpgpu::no_usable_gpu_reason();
  for (const dpgpu::ProblemEntry* p : dpgpu::Registry::get().problems()) {
    const auto small = small_instances().find(p->name);
    if (small == small_instances().end()) {
      ADD_FAILURE() << "problem " << p->name << ": no small instance in this test; add one";
      continue;
    }
    for (const dpgpu::SolverEntry* s : dpgpu::Registry::get().solvers(p->name)) {
      const std::string name = p->name + "/" + s->name + " (" + s->registered_at + ")";
      if (!s->unavailable.empty() || !s->broken.empty() || !s->solve) continue;
      if (s->backend == dpgpu::Backend::Gpu && !no_gpu.empty()) {
        ++gpu_skipped;
        continue;
      }
      const std::string refused = run_and_check(*p, *s, instance_for(*p, small->second), name);
      if (refused.empty())
        ++ran;
      else
        std::cout << "[ note ] " << name << " refused the small instance: " << refused << "\n";
    }
  }
  EXPECT_GT(ran, 10u) << "the CPU baselines at least";
  if (gpu_skipped)
    std::cout << "[ note ] " << gpu_skipped << " GPU solvers not run: no usable GPU (" << no_gpu
              << ")\n";
}
