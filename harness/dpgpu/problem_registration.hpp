// problem_registration.hpp — DPGPU_REGISTER_PROBLEM(P): a problem type P (name, help,
// generators, load, check, dims, work, optional extras) as a ProblemEntry in the registry.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/registry_table.hpp"
#include "dpgpu/source_location.hpp"

namespace dpgpu {

template <class P>
AnyInstance erase_instance(Loaded<typename P::Instance> loaded) {
  AnyInstance a;
  a.name = std::move(loaded.name);
  a.known_optimum = loaded.known_optimum;
  auto data = std::make_shared<const typename P::Instance>(std::move(loaded.instance));
  a.dims = P::dims(*data);
  a.work = P::work(*data);
  a.data = std::move(data);
  return a;
}

template <class P>
bool register_problem_now();

// A mistake in a problem's registration (a generator's parameter declared twice, ...) is
// recorded, not thrown: the registry's test names it, and every other command still runs.
template <class P>
bool register_problem(SourceLocation where = SourceLocation::current()) {
  try {
    return register_problem_now<P>();
  } catch (const std::logic_error& e) {
    Registry::get().add_error(std::string("problem '") + P::name + "' (" + where.file_name() + ":" +
                              std::to_string(where.line()) + "): " + e.what());
    return false;
  }
}

template <class P>
bool register_problem_now() {
  using I = typename P::Instance;
  using S = typename P::Solution;
  ProblemEntry e;
  e.name = P::name;
  e.help = P::help;
  for (auto& g : P::generators()) {
    e.generators.push_back(
        {g.name, g.help, g.schema, [make = g.make](const Params& p, std::uint64_t seed) {
           return erase_instance<P>(make(p, seed));
         }});
  }
  e.load = [](const FileSource& src) {
    std::vector<AnyInstance> out;
    for (auto& l : P::load(src)) out.push_back(erase_instance<P>(std::move(l)));
    return out;
  };
  e.check = [](const AnyInstance& x, const AnyOutcome& o) -> std::optional<Verdict> {
    if (!o.solution) return std::nullopt;
    return P::check(x.as<I>(), *static_cast<const S*>(o.solution.get()));
  };
  if constexpr (requires(const std::string& g, const Params& p) { P::instance_bytes(g, p); })
    e.instance_bytes = [](const std::string& g, const Params& p) {
      return std::uint64_t(P::instance_bytes(g, p));
    };
  if constexpr (requires { P::file_kinds; }) {
    std::string kinds = P::file_kinds;
    for (std::size_t start = 0; start < kinds.size();) {
      std::size_t end = kinds.find(',', start);
      if (end == std::string::npos) end = kinds.size();
      e.file_kinds.push_back(kinds.substr(start, end - start));
      start = end + 1;
    }
  }
  if constexpr (requires(const I& x) { P::reference_optimum(x); }) {
    e.reference_optimum = [](const AnyInstance& x) -> std::optional<Objective> {
      return P::reference_optimum(x.as<I>());
    };
    e.with_optimum = [](const AnyInstance& x, Objective optimum) {
      I copy = x.as<I>();
      copy.optimum = optimum;
      return erase_instance<P>(Loaded<I>{x.name, std::move(copy), optimum});
    };
  }
  Registry::get().add(std::move(e));
  return true;
}

#define DPGPU_CONCAT_(a, b) a##b
#define DPGPU_CONCAT(a, b) DPGPU_CONCAT_(a, b)
#define DPGPU_REGISTER_PROBLEM(P)                                                        \
  [[maybe_unused]] static const bool DPGPU_CONCAT(dpgpu_problem_registered_, __LINE__) = \
      ::dpgpu::register_problem<P>()

}  // namespace dpgpu
