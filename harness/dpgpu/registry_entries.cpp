// The entries' own rules: a problem's generators, a solver's instance and device checks.
#include "dpgpu/registry_entries.hpp"

#include <optional>
#include <string>

namespace dpgpu {

const GeneratorEntry* ProblemEntry::generator(const std::string& n) const {
  for (auto& g : generators)
    if (g.name == n) return &g;
  return nullptr;
}

std::optional<std::string> SolverEntry::check_instance(const Params& p,
                                                       const AnyInstance& x) const {
  for (auto& rule : instance_checks)
    if (auto why = rule(p, x)) return why;
  return std::nullopt;
}

std::optional<std::string> SolverEntry::check(const Params& p, const ValueMap& dims) const {
  AnyInstance sizes;
  sizes.dims = dims;
  return check_instance(p, sizes);
}

std::optional<std::string> SolverEntry::check_device(const Params& p, const AnyInstance& x) const {
  for (auto& rule : device_checks)
    if (auto why = rule(p, x)) return why;
  return std::nullopt;
}

std::string SolverEntry::registration_error() const {
  return "solver '" + name + "' for " + problem + " (" + registered_at + "): " + broken;
}

}  // namespace dpgpu
