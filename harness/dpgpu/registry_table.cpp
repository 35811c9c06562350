#include "dpgpu/registry_table.hpp"

#include <string>
#include <utility>
#include <vector>

namespace dpgpu {

Registry& Registry::get() {
  static Registry r;
  return r;
}

void Registry::add(ProblemEntry p) {
  auto name = p.name;
  if (!problems_.emplace(name, std::move(p)).second)
    errors_.push_back("problem '" + name + "' registered twice");
}

void Registry::add(SolverEntry s) {
  auto key = std::make_pair(s.problem, s.name);
  const std::string at = s.registered_at;
  auto [it, added] = solvers_.emplace(key, std::move(s));
  if (!added && it->second.broken.empty())
    it->second.broken = "registered twice (again at " + at + ")";
}

std::vector<std::string> Registry::errors() const {
  std::vector<std::string> out = errors_;
  for (auto& [_, s] : solvers_)
    if (!s.broken.empty()) out.push_back(s.registration_error());
  return out;
}

const ProblemEntry* Registry::problem(const std::string& name) const {
  auto it = problems_.find(name);
  return it == problems_.end() ? nullptr : &it->second;
}

const SolverEntry* Registry::solver(const std::string& problem, const std::string& name) const {
  auto it = solvers_.find({problem, name});
  return it == solvers_.end() ? nullptr : &it->second;
}

std::vector<const ProblemEntry*> Registry::problems() const {
  std::vector<const ProblemEntry*> out;
  for (auto& [_, p] : problems_) out.push_back(&p);
  return out;
}

std::vector<const SolverEntry*> Registry::solvers(const std::string& problem) const {
  std::vector<const SolverEntry*> out;
  for (auto& [key, s] : solvers_)
    if (problem.empty() || key.first == problem) out.push_back(&s);
  return out;
}

}  // namespace dpgpu
