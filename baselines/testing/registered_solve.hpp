// registered_solve.hpp — what the CPU baselines' tests share when they go through the registry
// as a run does: finding a registered solver, and one solve with its default parameters whose
// every counter must be declared by the registration. Test-only; header-only (on the include
// path of every test_<problem>_baselines, cmake/dpgpu.cmake).
#pragma once
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "dpgpu/context.hpp"
#include "dpgpu/registry.hpp"

namespace baseline_test {

// The solver `name` of `problem`; throws when it is not registered.
inline const dpgpu::SolverEntry& registered(const std::string& problem, const std::string& name) {
  auto* s = dpgpu::Registry::get().solver(problem, name);
  if (!s) throw std::runtime_error("not registered: " + name);
  return *s;
}

// Solves `x` with the solver's default parameters in `ctx` (begin, solve, end) and expects each
// counter the solve set to be declared.
inline dpgpu::AnyOutcome solve_with_defaults(const dpgpu::SolverEntry& s,
                                             const dpgpu::AnyInstance& x, dpgpu::Context& ctx) {
  ctx.begin();
  auto out = s.solve(x, s.schema.resolve({}), ctx);
  ctx.end();
  EXPECT_EQ(s.undeclared_counter(ctx.counters()).value_or(""), "")
      << s.name;  // each counter declared
  return out;
}

}  // namespace baseline_test
