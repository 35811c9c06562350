// registry.hpp — problems and solvers declare themselves where they live; the harness
// finds them here by name and never includes them.
//
//   DPGPU_REGISTER_PROBLEM(lcs::Problem);
//
// A solver whose parameters are the fields of a config struct declares each one once, bound
// to its field (type and default come from the field), and gets the config built for it:
//
//   struct Config { int block = 256; bool offload = true; Mode mode = Mode::Tile; };
//   static const auto registered = dpgpu::solver<lcs::Problem, Config>("gpu.x", "what it is")
//       .param("block", &Config::block, dpgpu::between(32, 1024), "threads per block")
//       .rule("block", dpgpu::multiple_of(32))
//       .param("offload", &Config::offload, "bits to the host while computing")
//       .choice("mode", &Config::mode, {{"tile", Mode::Tile}, {"cell", Mode::Cell}}, "...")
//       .check([](const Config& c) -> std::optional<std::string> { ... })  // across parameters
//       .check_instance([](const Config& c, const dpgpu::ValueMap& dims) { ... })  // with sizes
//       .check_device([](const Config& c, const lcs::Instance& x) { ... })  // needs the GPU
//       .memory([](const lcs::Instance& x, const Config& c) { return dpgpu::MemoryNeed{...}; })
//       .solve_gpu([](const lcs::Instance& x, const Config& c, dpgpu::Context& ctx) {
//           return dpgpu::Outcome<lcs::Solution>{...}; });
//
// `solve_gpu` is the one registration for a GPU solve: in a build without CUDA the solver is
// listed as unavailable ("dpgpu was built without CUDA"), and where no GPU is usable a solve
// throws GpuUnavailable with a reason a user can act on. The solve's body must then only call
// functions declared in CUDA-free headers; it is never emitted without CUDA, so their
// definitions may live in .cu files that CPU-only builds leave out.
//
// Solvers without a config read values by name (`Params::integer("block")`, ...):
//
//   dpgpu::solver<lcs::Problem>("cpu.linear", "two rows, length only")
//       .param("threads", std::int64_t{0}, dpgpu::at_least(0), "0: all cores")
//       .solve([](const lcs::Instance& x, const dpgpu::Params& p, dpgpu::Context& ctx) { ... });
//
// A name starting with "gpu." makes a GPU solver (run in a child process, timed by CUDA
// events on ctx.stream()). One solver name may be registered for several problems.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <version>
#ifdef __cpp_lib_source_location
#include <source_location>
#endif
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "dpgpu/bound_param.hpp"
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/gpu_presence.hpp"
#include "dpgpu/params.hpp"
#include "dpgpu/problem.hpp"
#include "dpgpu/solver.hpp"

namespace dpgpu {

// Where a registration is written, for its errors. clang 14 with libstdc++ 12 (the fuzz
// build) has no std::source_location; there the same two members come from the builtins.
#ifdef __cpp_lib_source_location
using SourceLocation = std::source_location;
#else
struct SourceLocation {
  static constexpr SourceLocation current(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
    return {file, line};
  }
  constexpr const char* file_name() const { return file_; }
  constexpr unsigned line() const { return line_; }
  const char* file_;
  unsigned line_;
};
#endif

// A problem's instance with the problem's type erased, plus what the harness needs of it.
struct AnyInstance {
  std::string name;
  std::shared_ptr<const void> data;
  ValueMap dims;
  double work = 0;
  std::optional<Objective> known_optimum;
  template <class T>
  const T& as() const { return *static_cast<const T*>(data.get()); }
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
  std::function<AnyOutcome(const AnyInstance&, const Params&, Context&)> solve;
  std::string unavailable;  // non-empty: registered but cannot run here (e.g. built without CUDA)
  std::string backend_name;  // non-empty: names the backend in outputs (e.g. "kokkos-cuda")
  // Rules between the parameters and an instance (its sizes, P::dims, or the instance
  // itself): why this case cannot run, or nullopt. The planner calls check() once per
  // (instance, solver point) before running, on any machine.
  using InstanceCheck = std::function<std::optional<std::string>(const Params&, const AnyInstance&)>;
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
    throw std::logic_error("solver '" + e.name + "' for " + e.problem + " does not bind its parameters to this config type");
  return *static_cast<const Config*>(e.binding.make(p).get());
}

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
    e.generators.push_back({g.name, g.help, g.schema,
                            [make = g.make](const Params& p, std::uint64_t seed) {
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
    e.instance_bytes = [](const std::string& g, const Params& p) { return std::uint64_t(P::instance_bytes(g, p)); };
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
    e.reference_optimum = [](const AnyInstance& x) -> std::optional<Objective> { return P::reference_optimum(x.as<I>()); };
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
#define DPGPU_REGISTER_PROBLEM(P) \
  [[maybe_unused]] static const bool DPGPU_CONCAT(dpgpu_problem_registered_, __LINE__) = ::dpgpu::register_problem<P>()

struct Registered {};

// What `validate()` (any callable that throws InputError on bad input) refuses, or nullopt:
// lets a solver's existing validate(config) serve as its .check() rule, one source of truth.
template <class F>
std::optional<std::string> refusal_of(F&& validate) {
  try {
    validate();
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// A rule written as `std::string why_not(...)` ("" when nothing is wrong) as a rule's answer:
// .check([](const Config& c) { return dpgpu::refusal(why_not(c)); }).
inline std::optional<std::string> refusal(std::string why) {
  if (why.empty()) return std::nullopt;
  return why;
}

// Config: the struct the parameters are bound to (see the top of this file), or void for a
// solver that reads its parameters by name.
template <class P, class Config = void>
class SolverBuilder {
  static constexpr bool kBound = !std::is_void_v<Config>;
  // What a rule or solve written against the config takes; Params where nothing is bound, so
  // that no `const void&` is formed (clang checks discarded branches' non-dependent types).
  using BoundArg = std::conditional_t<kBound, Config, Params>;

 public:
  using Instance = typename P::Instance;
  using Solution = typename P::Solution;

  SolverBuilder(std::string name, std::string help, SourceLocation where = SourceLocation::current()) {
    e_.registered_at = std::string(where.file_name()) + ":" + std::to_string(where.line());
    e_.backend = name.rfind("gpu.", 0) == 0 ? Backend::Gpu : Backend::Cpu;
    e_.name = std::move(name);
    e_.help = std::move(help);
    e_.problem = P::name;
    if constexpr (kBound) {
      binding_ = std::make_shared<ConfigBinding<Config>>();
      e_.binding = {typeid(Config), [b = binding_](const Params& p) -> std::shared_ptr<const void> {
                      return std::make_shared<const Config>((*b)(p));
                    }};
    }
  }
  // Overrides what the name's prefix implies, for solvers named after a library rather than
  // a device (kokkos.wavefront runs on Kokkos's CUDA backend): where it runs, and the name of
  // its backend for the outputs.
  SolverBuilder& backend(Backend b, std::string name) {
    e_.backend = b;
    e_.backend_name = std::move(name);
    return *this;
  }

  // --- parameters read by name --------------------------------------------------------------
  SolverBuilder& param(std::string name, std::int64_t def, Range r, std::string help) {
    return guarded([&] { e_.schema.add({std::move(name), ParamType::Int, def, r, {}, std::move(help)}); });
  }
  SolverBuilder& param(std::string name, double def, Range r, std::string help) {
    return guarded([&] { e_.schema.add({std::move(name), ParamType::Real, def, r, {}, std::move(help)}); });
  }
  SolverBuilder& param(std::string name, bool def, std::string help) {
    return guarded([&] { e_.schema.add({std::move(name), ParamType::Bool, def, {}, {}, std::move(help)}); });
  }
  SolverBuilder& param(std::string name, std::string def, std::string help) {
    return guarded([&] { e_.schema.add({std::move(name), ParamType::String, std::move(def), {}, {}, std::move(help)}); });
  }
  SolverBuilder& choice(std::string name, std::string def, std::vector<std::string> choices,
                        std::string help) {
    return guarded([&] {
      e_.schema.add({std::move(name), ParamType::Choice, std::move(def), {}, std::move(choices), std::move(help)});
    });
  }

  // --- parameters bound to a field of Config (default: the field's in Config{}) -------------
  // Numeric fields, with a range (narrowed to what the field's type holds).
  template <class D, class T>
  SolverBuilder& param(std::string name, T D::*field, Range r, std::string help) {
    static_assert(std::is_same_v<D, Config>, "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    static_assert(param_type_of<T>() == ParamType::Int || param_type_of<T>() == ParamType::Real,
                  "a range is for numeric fields; declare bool and std::string fields without one");
    return bind_field(name, field,
                      {name, param_type_of<T>(), value_of_field(Config{}.*field), range_for<T>(r), {}, std::move(help)});
  }
  // bool, std::string and unbounded numeric fields.
  template <class D, class T>
  SolverBuilder& param(std::string name, T D::*field, std::string help) {
    static_assert(std::is_same_v<D, Config>, "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    static_assert(!std::is_enum_v<T>, "an enum field is a choice: .choice(name, &Config::field, {{\"a\", E::A}, ...}, help)");
    return bind_field(name, field,
                      {name, param_type_of<T>(), value_of_field(Config{}.*field), range_for<T>({}), {}, std::move(help)});
  }
  // A std::string field holding one of `choices`.
  template <class D>
  SolverBuilder& choice(std::string name, std::string D::*field, std::vector<std::string> choices, std::string help) {
    static_assert(std::is_same_v<D, Config>, "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    return bind_field(name, field,
                      {name, ParamType::Choice, Config{}.*field, {}, std::move(choices), std::move(help)});
  }
  // An enum field, each value under a name.
  template <class D, class T>
    requires std::is_enum_v<T>
  SolverBuilder& choice(std::string name, T D::*field, std::vector<std::pair<std::string, T>> named, std::string help) {
    static_assert(std::is_same_v<D, Config>, "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    std::vector<std::string> names;
    std::string def;
    for (auto& [n, v] : named) {
      names.push_back(n);
      if (v == Config{}.*field) def = n;
    }
    return guarded([&] {
      if (def.empty()) throw std::logic_error("parameter '" + name + "': the field's default has no name among its choices");
      e_.schema.add({name, ParamType::Choice, def, {}, names, std::move(help)});
      binding_->add([name, field, named = std::move(named)](const Params& p, Config& c) {
        const std::string& s = p.text(name);
        for (auto& [n, v] : named)
          if (n == s) c.*field = v;
      });
    });
  }

  // --- rules ----------------------------------------------------------------------------------
  // An extra check on a declared parameter (see ParamRule), run whenever it is resolved.
  SolverBuilder& rule(const std::string& name, ParamRule fn) {
    return guarded([&] { e_.schema.set_rule(name, std::move(fn)); });
  }
  // A rule across parameters, run when they are resolved (so by `dpgpu check`): fn(const
  // Config&) or fn(const Params&) -> std::optional<std::string>, the message naming the
  // parameters. Declare it after the parameters it reads; the defaults must pass it.
  template <class F>
  SolverBuilder& check(F fn) {
    return guarded([&] {
      if constexpr (std::is_invocable_v<F&, const Params&>) {
        e_.schema.add_check(std::move(fn));
      } else {
        static_assert(kBound && std::is_invocable_v<F&, const BoundArg&>,
                      "check(fn): fn(const Config&) or fn(const Params&) -> std::optional<std::string>");
        e_.schema.add_check([b = binding_, fn = std::move(fn)](const Params& p) { return fn((*b)(p)); });
      }
    });
  }
  // A rule between the parameters and an instance: fn(const Config& or const Params&, const
  // ValueMap& dims) with its sizes (P::dims, e.g. "n"), or fn(..., const Instance&) where the
  // rule needs more (a bound over its offsets, a known optimum) -> std::optional<std::string>.
  // Name the parameter in quotes ('p'): the planner points at that key's line.
  template <class F>
  SolverBuilder& check_instance(F fn) {
    e_.instance_checks.push_back(instance_rule(std::move(fn)));
    return *this;
  }
  // A rule that needs the GPU (same forms as check_instance): the planner asks it only where
  // a GPU is usable, and says elsewhere that the case will be skipped. Like solve_gpu, it is
  // kept only in CUDA builds, so its body may call functions defined in .cu files.
  template <class F>
  SolverBuilder& check_device([[maybe_unused]] F fn) {
#if DPGPU_WITH_CUDA
    e_.device_checks.push_back(instance_rule(std::move(fn)));
#endif
    return *this;
  }
  // The solver needs the instance's optimum before it runs when fn(const Config& or const
  // Params&) says so (a search starting from it): the planner finds one by the problem's
  // reference_optimum where the source has none.
  template <class F>
  SolverBuilder& needs_optimum(F fn) {
    if constexpr (std::is_invocable_v<F&, const Params&>) {
      e_.needs_optimum = std::move(fn);
    } else {
      static_assert(kBound && std::is_invocable_v<F&, const BoundArg&>, "needs_optimum(fn): fn(const Config&) -> bool");
      e_.needs_optimum = [b = binding_, fn = std::move(fn)](const Params& p) { return bool(fn((*b)(p))); };
    }
    return *this;
  }
  // The solver's `work` per run is this counter (set with ctx.set), not P::work(instance):
  // "nodes" for the searches (README: work is cell updates for DP, nodes for search).
  SolverBuilder& work_counter(std::string counter) {
    e_.work_counter = std::move(counter);
    return *this;
  }

  // --- memory and solve -----------------------------------------------------------------------
  // fn(const Instance&, const Config& or const Params&) -> MemoryNeed.
  template <class F>
  SolverBuilder& memory(F fn) {
    e_.memory = [read = adapt<MemoryNeed>(std::move(fn))](const AnyInstance& x, const Params& p) {
      return read(x.as<Instance>(), p);
    };
    return *this;
  }
  // Registers the solver as present but not runnable here; `reason` goes into skipped rows.
  Registered unavailable(std::string reason) {
    e_.unavailable = std::move(reason);
    Registry::get().add(std::move(e_));
    return {};
  }
  // fn(const Instance&, const Config& or const Params&, Context&) -> Outcome<Solution>.
  template <class F>
  Registered solve(F fn) {
    set_solve(std::move(fn));
    Registry::get().add(std::move(e_));
    return {};
  }
  // A GPU solve (see the top of this file): unavailable without CUDA, GpuUnavailable at run
  // time where no GPU is usable.
  template <class F>
  Registered solve_gpu([[maybe_unused]] F fn) {
#if DPGPU_WITH_CUDA
    set_solve(std::move(fn));
    e_.solve = [solve = std::move(e_.solve)](const AnyInstance& x, const Params& p, Context& ctx) {
      static const std::string why = no_usable_gpu_reason();
      if (!why.empty()) throw GpuUnavailable("skipped: no usable GPU (" + why + ")");
      return solve(x, p, ctx);
    };
    Registry::get().add(std::move(e_));
    return {};
#else
    return unavailable("dpgpu was built without CUDA");
#endif
  }

 // What is declared so far (tests read SolverEntry::broken here).
  const SolverEntry& entry() const { return e_; }

 private:
  // fn(instance, Params or Config, rest...) as a function of (instance, Params, rest...).
  template <class R, class F>
  auto adapt(F fn) {
    return [b = binding_, fn = std::move(fn)](const Instance& x, const Params& p, auto&... rest) -> R {
      if constexpr (std::is_invocable_v<F&, const Instance&, const Params&, decltype(rest)...>) {
        return fn(x, p, rest...);
      } else {
        static_assert(kBound && std::is_invocable_v<F&, const Instance&, const BoundArg&, decltype(rest)...>,
                      "fn must take (const Instance&, const Config& or const Params&[, Context&])");
        return fn(x, (*b)(p), rest...);
      }
    };
  }
  template <class F>
  SolverEntry::InstanceCheck instance_rule(F fn) {
    return [b = binding_, fn = std::move(fn)](const Params& p, const AnyInstance& x) -> std::optional<std::string> {
      if constexpr (std::is_invocable_v<F&, const Params&, const ValueMap&>) {
        return fn(p, x.dims);
      } else if constexpr (std::is_invocable_v<F&, const Params&, const Instance&>) {
        if (!x.data) return std::nullopt;  // asked with sizes only (SolverEntry::check)
        return fn(p, x.as<Instance>());
      } else if constexpr (kBound && std::is_invocable_v<F&, const BoundArg&, const ValueMap&>) {
        return fn((*b)(p), x.dims);
      } else {
        static_assert(kBound && std::is_invocable_v<F&, const BoundArg&, const Instance&>,
                      "check_instance(fn): fn(const Config& or const Params&, const ValueMap& dims or const Instance&)");
        if (!x.data) return std::nullopt;
        return fn((*b)(p), x.as<Instance>());
      }
    };
  }
  template <class F>
  void set_solve(F fn) {
    e_.solve = [run = adapt<Outcome<Solution>>(std::move(fn))](const AnyInstance& x, const Params& p, Context& ctx) {
      Outcome<Solution> o = run(x.as<Instance>(), p, ctx);
      AnyOutcome a;
      a.objective = o.objective;
      a.checksum = o.checksum;
      if (o.solution) a.solution = std::make_shared<const Solution>(std::move(*o.solution));
      return a;
    };
  }
  template <class D, class T>
  SolverBuilder& bind_field(const std::string& name, T D::*field, ParamSpec spec) {
    return guarded([&] {
      e_.schema.add(std::move(spec));
      binding_->add([name, field](const Params& p, D& c) { c.*field = field_from<T>(p, name); });
    });
  }
  // One declaration step; a logic_error in it (the registration's own mistake) marks the
  // solver broken instead of ending the program. After the first, the steps are skipped.
  template <class F>
  SolverBuilder& guarded(F&& step) {
    if (!e_.broken.empty()) return *this;
    try {
      step();
    } catch (const std::logic_error& e) {
      e_.broken = e.what();
    }
    return *this;
  }

  SolverEntry e_;
  std::shared_ptr<ConfigBinding<std::conditional_t<kBound, Config, int>>> binding_;
};

template <class P, class Config = void>
SolverBuilder<P, Config> solver(std::string name, std::string help,
                                SourceLocation where = SourceLocation::current()) {
  return SolverBuilder<P, Config>(std::move(name), std::move(help), where);
}

}  // namespace dpgpu
