// registry_table.hpp — the one table of every registered problem and solver, by name, and
// the registrations' own mistakes.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/registry_entries.hpp"

namespace dpgpu {

class Registry {
 public:
  static Registry& get();
  void add(ProblemEntry p);
  void add(SolverEntry s);
  const ProblemEntry* problem(const std::string& name) const;
  const SolverEntry* solver(const std::string& problem, const std::string& name) const;
  std::vector<const ProblemEntry*> problems() const;
  std::vector<const SolverEntry*> solvers(const std::string& problem = "") const;  // all if empty
  // Every broken registration (SolverEntry::broken, a problem whose registration threw, a
  // name registered twice), one message each; empty when all are whole.
  std::vector<std::string> errors() const;
  void add_error(std::string message) { errors_.push_back(std::move(message)); }

 private:
  std::vector<std::string> errors_;
  std::map<std::string, ProblemEntry> problems_;
  std::map<std::pair<std::string, std::string>, SolverEntry> solvers_;  // (problem, solver)
};

}  // namespace dpgpu
