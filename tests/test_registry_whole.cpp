// Every problem and solver linked into dpgpu registers whole: a registration's own mistake
// (a rule for an undeclared parameter, a default that breaks its rule, a name registered
// twice) fails this one test, naming the solver, its file and the mistake.
#include <gtest/gtest.h>

#include "dpgpu/registry.hpp"

TEST(Registry, EveryRegistrationIsWhole) {
  const auto& reg = dpgpu::Registry::get();
  EXPECT_FALSE(reg.problems().empty());
  EXPECT_FALSE(reg.solvers().empty());
  for (const std::string& error : reg.errors()) ADD_FAILURE() << error;
}
