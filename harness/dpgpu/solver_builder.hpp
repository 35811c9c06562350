// solver_builder.hpp — dpgpu::solver<P, Config>(name, help): the builder a solver's
// registration is written with (parameters, rules, memory, solve or solve_gpu); see registry.hpp.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "dpgpu/bound_param.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/gpu_presence.hpp"
#include "dpgpu/registry_table.hpp"
#include "dpgpu/source_location.hpp"

namespace dpgpu {

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

  SolverBuilder(std::string name, std::string help,
                SourceLocation where = SourceLocation::current()) {
    e_.registered_at = std::string(where.file_name()) + ":" + std::to_string(where.line());
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
  // Where a solver registered with solve() or unavailable() runs (solve_gpu declares Gpu
  // itself): for solvers named after a library rather than a device (kokkos.wavefront runs on
  // Kokkos's CUDA backend), and the name of its backend for the outputs (empty: "gpu"/"cpu").
  SolverBuilder& backend(Backend b, std::string name = "") {
    e_.backend = b;
    e_.backend_name = std::move(name);
    return *this;
  }

  // --- parameters read by name --------------------------------------------------------------
  SolverBuilder& param(std::string name, std::int64_t def, Range r, std::string help,
                       SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] {
      e_.schema.add({std::move(name), ParamType::Int, def, r, {}, std::move(help)});
    });
  }
  SolverBuilder& param(std::string name, double def, Range r, std::string help,
                       SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] {
      e_.schema.add({std::move(name), ParamType::Real, def, r, {}, std::move(help)});
    });
  }
  SolverBuilder& param(std::string name, bool def, std::string help,
                       SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] {
      e_.schema.add({std::move(name), ParamType::Bool, def, {}, {}, std::move(help)});
    });
  }
  SolverBuilder& param(std::string name, std::string def, std::string help,
                       SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] {
      e_.schema.add({std::move(name), ParamType::String, std::move(def), {}, {}, std::move(help)});
    });
  }
  SolverBuilder& choice(std::string name, std::string def, std::vector<std::string> choices,
                        std::string help, SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] {
      e_.schema.add({std::move(name),
                     ParamType::Choice,
                     std::move(def),
                     {},
                     std::move(choices),
                     std::move(help)});
    });
  }

  // --- parameters bound to a field of Config (default: the field's in Config{}) -------------
  // Numeric fields, with a range (narrowed to what the field's type holds).
  template <class D, class T>
  SolverBuilder& param(std::string name, T D::*field, Range r, std::string help,
                       SourceLocation where = SourceLocation::current()) {
    static_assert(std::is_same_v<D, Config>,
                  "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    static_assert(param_type_of<T>() == ParamType::Int || param_type_of<T>() == ParamType::Real,
                  "a range is for numeric fields; declare bool and std::string fields without one");
    return bind_field(name, field,
                      {name,
                       param_type_of<T>(),
                       value_of_field(Config{}.*field),
                       range_for<T>(r),
                       {},
                       std::move(help)},
                      where);
  }
  // bool, std::string and unbounded numeric fields.
  template <class D, class T>
  SolverBuilder& param(std::string name, T D::*field, std::string help,
                       SourceLocation where = SourceLocation::current()) {
    static_assert(std::is_same_v<D, Config>,
                  "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    static_assert(
        !std::is_enum_v<T>,
        "an enum field is a choice: .choice(name, &Config::field, {{\"a\", E::A}, ...}, help)");
    return bind_field(name, field,
                      {name,
                       param_type_of<T>(),
                       value_of_field(Config{}.*field),
                       range_for<T>({}),
                       {},
                       std::move(help)},
                      where);
  }
  // A std::string field holding one of `choices`.
  template <class D>
  SolverBuilder& choice(std::string name, std::string D::*field, std::vector<std::string> choices,
                        std::string help, SourceLocation where = SourceLocation::current()) {
    static_assert(std::is_same_v<D, Config>,
                  "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    return bind_field(
        name, field,
        {name, ParamType::Choice, Config{}.*field, {}, std::move(choices), std::move(help)}, where);
  }
  // An enum field, each value under a name.
  template <class D, class T>
  requires std::is_enum_v<T> SolverBuilder& choice(
      std::string name, T D::*field, std::vector<std::pair<std::string, T>> named, std::string help,
      SourceLocation where = SourceLocation::current()) {
    static_assert(std::is_same_v<D, Config>,
                  "bind parameters to the solver's config: dpgpu::solver<Problem, Config>");
    std::vector<std::string> names;
    std::string def;
    for (auto& [n, v] : named) {
      names.push_back(n);
      if (v == Config{}.*field) def = n;
    }
    return guarded(where, [&] {
      if (def.empty())
        throw std::logic_error("parameter '" + name +
                               "': the field's default has no name among its choices");
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
  SolverBuilder& rule(const std::string& name, ParamRule fn,
                      SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] { e_.schema.set_rule(name, std::move(fn)); });
  }
  // A rule across parameters, run when they are resolved (so by `dpgpu check`): fn(const
  // Config&) or fn(const Params&) -> std::optional<std::string>, the message naming the
  // parameters. Declare it after the parameters it reads; the defaults must pass it.
  template <class F>
  SolverBuilder& check(F fn, SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] {
      if constexpr (std::is_invocable_v<F&, const Params&>) {
        e_.schema.add_check(std::move(fn));
      } else {
        static_assert(
            kBound && std::is_invocable_v<F&, const BoundArg&>,
            "check(fn): fn(const Config&) or fn(const Params&) -> std::optional<std::string>");
        e_.schema.add_check(
            [b = binding_, fn = std::move(fn)](const Params& p) { return fn((*b)(p)); });
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
      static_assert(kBound && std::is_invocable_v<F&, const BoundArg&>,
                    "needs_optimum(fn): fn(const Config&) -> bool");
      e_.needs_optimum = [b = binding_, fn = std::move(fn)](const Params& p) {
        return bool(fn((*b)(p)));
      };
    }
    return *this;
  }
  // The solver's `work` per run is this counter (set with ctx.set), not P::work(instance):
  // "nodes" for the searches (README: work is cell updates for DP, nodes for search).
  SolverBuilder& work_counter(std::string counter) {
    e_.work_counter = std::move(counter);
    return *this;
  }

  // A counter the solve sets (ctx.set(name, ...)): its kind, what it says, and for counts and
  // rates what is counted ("nodes"). Every counter the solve sets must be declared (counter.hpp):
  // a run that sets another fails, naming the solver and the counter.
  SolverBuilder& counter(std::string name, CounterKind kind, std::string help,
                         std::string unit = "", SourceLocation where = SourceLocation::current()) {
    return counter(CounterSpec{std::move(name), kind, std::move(help), std::move(unit)}, where);
  }
  SolverBuilder& counter(CounterSpec spec, SourceLocation where = SourceLocation::current()) {
    return guarded(where, [&] {
      if (auto why = counter_spec_error(spec)) throw std::logic_error(*why);
      for (const CounterSpec& c : e_.counters)
        if (c.name == spec.name)
          throw std::logic_error("counter '" + spec.name + "' declared twice");
      e_.counters.push_back(std::move(spec));
    });
  }
  // A list of them, e.g. a strategy folder's shared declarations (its *_counters.hpp).
  SolverBuilder& counters(const std::vector<CounterSpec>& specs,
                          SourceLocation where = SourceLocation::current()) {
    for (const CounterSpec& c : specs) counter(c, where);
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
  // fn(const Config& or const Params&, const ValueMap& dims) -> std::string: the memory plan
  // `dpgpu check` prints for each case (SolverEntry::memory_plan).
  template <class F>
  SolverBuilder& memory_plan(F fn) {
    e_.memory_plan = [b = binding_, fn = std::move(fn)](const Params& p, const ValueMap& dims) {
      if constexpr (std::is_invocable_v<F&, const Params&, const ValueMap&>)
        return std::string(fn(p, dims));
      else
        return std::string(fn((*b)(p), dims));
    };
    return *this;
  }
  // Registers the solver as present but not runnable here; `reason` goes into skipped rows.
  Registered unavailable(std::string reason) {
    e_.unavailable = std::move(reason);
    return add();
  }
  // fn(const Instance&, const Config& or const Params&, Context&) -> Outcome<Solution>.
  template <class F>
  Registered solve(F fn) {
    set_solve(std::move(fn));
    return add();
  }
  // A GPU solve (see the top of this file): unavailable without CUDA, GpuUnavailable at run
  // time where no GPU is usable.
  template <class F>
  Registered solve_gpu([[maybe_unused]] F fn) {
    e_.backend = Backend::Gpu;
#if DPGPU_WITH_CUDA
    set_solve(std::move(fn));
    e_.solve = [solve = std::move(e_.solve)](const AnyInstance& x, const Params& p, Context& ctx) {
      static const std::string why = no_usable_gpu_reason();
      if (!why.empty()) throw GpuUnavailable("skipped: no usable GPU (" + why + ")");
      return solve(x, p, ctx);
    };
    return add();
#else
    return unavailable("dpgpu was built without CUDA");
#endif
  }

  // What is declared so far (tests read SolverEntry::broken here).
  const SolverEntry& entry() const { return e_; }

 private:
  // The last step: a "gpu." name that the registration does not declare a GPU solver (a
  // `solve` where `solve_gpu` was meant) would be timed as a CPU solve, without events or
  // sync; it is refused as the registration's own mistake.
  Registered add() {
    if (e_.backend != Backend::Gpu && e_.name.rfind("gpu.", 0) == 0)
      e_.broken += std::string(e_.broken.empty() ? "" : "; ") +
                   "named gpu.* but registered as a CPU solve: register it with solve_gpu";
    Registry::get().add(std::move(e_));
    return {};
  }
  // fn(instance, Params or Config, rest...) as a function of (instance, Params, rest...).
  template <class R, class F>
  auto adapt(F fn) {
    return [b = binding_, fn = std::move(fn)](const Instance& x, const Params& p,
                                              auto&... rest) -> R {
      if constexpr (std::is_invocable_v<F&, const Instance&, const Params&, decltype(rest)...>) {
        return fn(x, p, rest...);
      } else {
        static_assert(
            kBound && std::is_invocable_v<F&, const Instance&, const BoundArg&, decltype(rest)...>,
            "fn must take (const Instance&, const Config& or const Params&[, Context&])");
        return fn(x, (*b)(p), rest...);
      }
    };
  }
  template <class F>
  SolverEntry::InstanceCheck instance_rule(F fn) {
    return [b = binding_, fn = std::move(fn)](const Params& p,
                                              const AnyInstance& x) -> std::optional<std::string> {
      if constexpr (std::is_invocable_v<F&, const Params&, const ValueMap&>) {
        return fn(p, x.dims);
      } else if constexpr (std::is_invocable_v<F&, const Params&, const Instance&>) {
        if (!x.data) return std::nullopt;  // asked with sizes only (SolverEntry::check)
        return fn(p, x.as<Instance>());
      } else if constexpr (kBound && std::is_invocable_v<F&, const BoundArg&, const ValueMap&>) {
        return fn((*b)(p), x.dims);
      } else {
        static_assert(kBound && std::is_invocable_v<F&, const BoundArg&, const Instance&>,
                      "check_instance(fn): fn(const Config& or const Params&, const ValueMap& dims "
                      "or const Instance&)");
        if (!x.data) return std::nullopt;
        return fn((*b)(p), x.as<Instance>());
      }
    };
  }
  template <class F>
  void set_solve(F fn) {
    e_.solve = [run = adapt<Outcome<Solution>>(std::move(fn))](const AnyInstance& x,
                                                               const Params& p, Context& ctx) {
      Outcome<Solution> o = run(x.as<Instance>(), p, ctx);
      AnyOutcome a;
      a.objective = o.objective;
      a.checksum = o.checksum;
      if (o.solution) a.solution = std::make_shared<const Solution>(std::move(*o.solution));
      return a;
    };
  }
  template <class D, class T>
  SolverBuilder& bind_field(const std::string& name, T D::*field, ParamSpec spec,
                            SourceLocation where) {
    return guarded(where, [&] {
      e_.schema.add(std::move(spec));
      binding_->add([name, field](const Params& p, D& c) { c.*field = field_from<T>(p, name); });
    });
  }
  // One declaration step, written at `where`; a logic_error in it (the registration's own
  // mistake) marks the solver broken instead of ending the program. Every step still runs, so
  // every mistake of a registration is listed, each at its own line ("file:line: why").
  // After a first mistake, another exception of a later step (one that read what the mistake
  // left out) is listed too rather than thrown.
  template <class F>
  SolverBuilder& guarded(SourceLocation where, F&& step) {
    const auto note = [&](const char* why) {
      const std::string at = std::string(where.file_name()) + ":" + std::to_string(where.line());
      e_.broken += (e_.broken.empty() ? "" : "; ") + at + ": " + why;
    };
    try {
      step();
    } catch (const std::logic_error& e) {
      note(e.what());
    } catch (const std::exception& e) {
      if (e_.broken.empty()) throw;
      note(e.what());
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
