// Every problem and solver linked into dpgpu registers whole: a registration's own mistake
// (a rule for an undeclared parameter, a default that breaks its rule, a name registered
// twice) fails this one test, naming the solver, its file and the mistake.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "dpgpu/registry.hpp"

TEST(Registry, EveryRegistrationIsWhole) {
  const auto& reg = dpgpu::Registry::get();
  EXPECT_FALSE(reg.problems().empty());
  EXPECT_FALSE(reg.solvers().empty());
  for (const std::string& error : reg.errors()) ADD_FAILURE() << error;
}

// What the harness needs of every solver, whatever its family (one test, not one per folder):
// a help line, a backend that matches what its name promises, and a solve where it can run
// (the memory estimate is optional: gpu.bpdfs has none). CPU baselines ("cpu.") are built
// everywhere, so they are always available.
TEST(Registry, EverySolverDeclaresWhatTheHarnessReads) {
  for (const dpgpu::SolverEntry* s : dpgpu::Registry::get().solvers()) {
    const std::string name = s->problem + " " + s->name + " (" + s->registered_at + ")";
    EXPECT_FALSE(s->help.empty()) << name;
    if (s->name.rfind("gpu.", 0) == 0) EXPECT_EQ(s->backend, dpgpu::Backend::Gpu) << name;
    if (s->name.rfind("cpu.", 0) == 0) {
      EXPECT_EQ(s->backend, dpgpu::Backend::Cpu) << name;
      EXPECT_EQ(s->unavailable, "") << name;
    }
    if (s->unavailable.empty()) EXPECT_TRUE(s->solve) << name;
  }
}

// Every solver's counters (all must be declared: a run that sets another fails) are distinct,
// well formed (a name, help, a unit for counts and rates, a valid kind), not the harness's own,
// and include its work counter.
TEST(Registry, EverySolverDeclaresItsCountersWellFormed) {
  for (const dpgpu::SolverEntry* s : dpgpu::Registry::get().solvers()) {
    const std::string name = s->problem + " " + s->name + " (" + s->registered_at + ")";
    std::set<std::string> declared;
    for (const dpgpu::CounterSpec& c : s->counters) {
      EXPECT_TRUE(declared.insert(c.name).second) << name << ": " << c.name << " declared twice";
      if (auto why = dpgpu::counter_spec_error(c)) ADD_FAILURE() << name << ": " << *why;
      EXPECT_EQ(dpgpu::find_counter(dpgpu::harness_counters(), c.name), nullptr)
          << name << ": " << c.name << " is the harness's own";
    }
    if (!s->work_counter.empty()) {
      EXPECT_NE(dpgpu::find_counter(s->counters, s->work_counter), nullptr)
          << name << ": work counter " << s->work_counter << " not declared";
    }
  }
}
