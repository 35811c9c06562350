// registry_entries.hpp — what the registry holds: problems, generators and solvers with their
// types erased (AnyInstance, AnyOutcome), and bind<Config> to get a solver's config back.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "dpgpu/bound_param.hpp"
#include "dpgpu/context.hpp"
#include "dpgpu/counter.hpp"
#include "dpgpu/params.hpp"
#include "dpgpu/problem.hpp"
#include "dpgpu/solver.hpp"

namespace dpgpu {

// A problem's instance with the problem's type erased, plus what the harness needs of it.
struct AnyInstance {
  std::string name;
  std::shared_ptr<const void> data;
  ValueMap dims;
  double work = 0;
  std::optional<Objective> known_optimum;
  template <class T>
  const T& as() const {
    return *static_cast<const T*>(data.get());
  }
};

struct AnyOutcome {
  Objective objective = 0;
  std::shared_ptr<const void> solution;  // null when the solver made no certificate
  std::optional<std::uint64_t> checksum;
};

struct GeneratorEntry {
  std::string name, help;
  Schema schema;
  std::function<AnyInstance(const Params&, std::uint64_t seed)> make;
};

struct ProblemEntry {
  std::string name, help;
  std::vector<GeneratorEntry> generators;
  std::function<std::vector<AnyInstance>(const FileSource&)> load;
  // Rechecks a certificate: nullopt when the outcome carries none.
  std::function<std::optional<Verdict>(const AnyInstance&, const AnyOutcome&)> check;
  // Optional: host bytes an instance of this generator will take, estimated before it is
  // built (from P::instance_bytes(generator, params)), so a huge `n` is an `oom` row.
  std::function<std::uint64_t(const std::string& generator, const Params&)> instance_bytes;
  // Optional: the file kinds load() reads ("fasta", "tsplib", "text"; from P::file_kinds, a
  // comma-separated list); a file that looks like another recognised kind is refused.
  std::vector<std::string> file_kinds;
  // Optional (P::reference_optimum): an instance's optimum computed by a reference solver
  // where one is cheap enough (tsp: Held-Karp, n <= 22), or nullopt. The planner asks it for
  // an instance without a known optimum when a solver needs one (SolverEntry::needs_optimum).
  std::function<std::optional<Objective>(const AnyInstance&)> reference_optimum;
  // The instance with `optimum` known (a copy: instances are shared and immutable).
  std::function<AnyInstance(const AnyInstance&, Objective optimum)> with_optimum;
  const GeneratorEntry* generator(const std::string& name) const;
};

struct SolverEntry {
  std::string name, help, problem;
  Backend backend = Backend::Cpu;
  Schema schema;
  std::function<MemoryNeed(const AnyInstance&, const Params&)> memory;  // may be empty
  // Optional: one line on what a case of these sizes will allocate (per GPU, on the host),
  // printed by `dpgpu check` under the case table; empty when there is nothing to say.
  std::function<std::string(const Params&, const ValueMap& dims)> memory_plan;
  std::function<AnyOutcome(const AnyInstance&, const Params&, Context&)> solve;
  std::string unavailable;   // non-empty: registered but cannot run here (e.g. built without CUDA)
  std::string backend_name;  // non-empty: names the backend in outputs (e.g. "kokkos-cuda")
  // Rules between the parameters and an instance (its sizes, P::dims, or the instance
  // itself): why this case cannot run, or nullopt. The planner calls check() once per
  // (instance, solver point) before running, on any machine.
  using InstanceCheck =
      std::function<std::optional<std::string>(const Params&, const AnyInstance&)>;
  std::vector<InstanceCheck> instance_checks;
  std::optional<std::string> check_instance(const Params& p, const AnyInstance& x) const;
  // The rules on an instance's sizes alone (dims): those that need the instance itself pass.
  std::optional<std::string> check(const Params& p, const ValueMap& dims) const;
  // Rules that need the GPU's properties (co-resident blocks, shared memory): registered
  // only in CUDA builds, evaluated by the planner only where a GPU is usable.
  std::vector<InstanceCheck> device_checks;
  std::optional<std::string> check_device(const Params& p, const AnyInstance& x) const;
  // Whether these parameters need the instance's optimum before the solve (a search that
  // starts from it); the planner then finds one by the problem's reference_optimum. May be empty.
  std::function<bool(const Params&)> needs_optimum;
  // Non-empty: the counter (ctx.set) that is this solver's `work` per run, e.g. "nodes" for
  // a tree search, whose work is what it visited, not a property of the instance.
  std::string work_counter;
  // The counters its solve sets, each with its kind (counter.hpp), so outputs format them
  // without a table of names. A run that sets another (the harness's own aside) fails with an
  // error naming the solver and the counter.
  std::vector<CounterSpec> counters;
  std::optional<std::string> undeclared_counter(const std::map<std::string, double>& set) const {
    return dpgpu::undeclared_counter(name, counters, set);
  }
  AnyBinding binding;  // the config type its parameters are bound to (bind<Config>), if any
  // Where it was registered ("file:line") and, non-empty, the registration's own mistake (a
  // rule for an undeclared parameter, a default that breaks its rule): such a solver stays
  // listed, a case naming it is refused, and the registry's test fails; the others run.
  std::string registered_at;
  std::string broken;
  std::string registration_error() const;  // names the solver, its file and the mistake
};

// The config of a solver registered with dpgpu::solver<P, Config>, built from resolved values.
template <class Config>
Config bind(const SolverEntry& e, const Params& p) {
  if (e.binding.type != typeid(Config))
    throw std::logic_error("solver '" + e.name + "' for " + e.problem +
                           " does not bind its parameters to this config type");
  return *static_cast<const Config*>(e.binding.make(p).get());
}

}  // namespace dpgpu
