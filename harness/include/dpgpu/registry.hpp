// registry.hpp — problems and solvers declare themselves where they live; the harness
// finds them here by name and never includes them.
//
//   DPGPU_REGISTER_PROBLEM(lcs::Problem);
//
//   static const auto registered = dpgpu::solver<lcs::Problem>("cpu.linear", "two rows, length only")
//       .param("threads", std::int64_t{0}, dpgpu::at_least(0), "0: all cores")
//       .memory([](const lcs::Instance& x, const dpgpu::Params&) { return dpgpu::MemoryNeed{...}; })
//       .solve([](const lcs::Instance& x, const dpgpu::Params& p, dpgpu::Context& ctx) {
//           return dpgpu::Outcome<lcs::Solution>{...}; });
//
// A name starting with "gpu." makes a GPU solver (run in a child process, timed by CUDA
// events on ctx.stream()). One solver name may be registered for several problems.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/context.hpp"
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
  const GeneratorEntry* generator(const std::string& name) const;
};

struct SolverEntry {
  std::string name, help, problem;
  Backend backend = Backend::Cpu;
  Schema schema;
  std::function<MemoryNeed(const AnyInstance&, const Params&)> memory;  // may be empty
  std::function<AnyOutcome(const AnyInstance&, const Params&, Context&)> solve;
  std::string unavailable;  // non-empty: registered but cannot run here (e.g. built without CUDA)
};

class Registry {
 public:
  static Registry& get();
  void add(ProblemEntry p);
  void add(SolverEntry s);
  const ProblemEntry* problem(const std::string& name) const;
  const SolverEntry* solver(const std::string& problem, const std::string& name) const;
  std::vector<const ProblemEntry*> problems() const;
  std::vector<const SolverEntry*> solvers(const std::string& problem = "") const;  // all if empty

 private:
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
bool register_problem() {
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
  Registry::get().add(std::move(e));
  return true;
}

#define DPGPU_CONCAT_(a, b) a##b
#define DPGPU_CONCAT(a, b) DPGPU_CONCAT_(a, b)
#define DPGPU_REGISTER_PROBLEM(P) \
  [[maybe_unused]] static const bool DPGPU_CONCAT(dpgpu_problem_registered_, __LINE__) = ::dpgpu::register_problem<P>()

struct Registered {};

template <class P>
class SolverBuilder {
 public:
  using Instance = typename P::Instance;
  using Solution = typename P::Solution;
  using SolveFn = std::function<Outcome<Solution>(const Instance&, const Params&, Context&)>;
  using MemoryFn = std::function<MemoryNeed(const Instance&, const Params&)>;

  SolverBuilder(std::string name, std::string help) {
    e_.backend = name.rfind("gpu.", 0) == 0 ? Backend::Gpu : Backend::Cpu;
    e_.name = std::move(name);
    e_.help = std::move(help);
    e_.problem = P::name;
  }
  SolverBuilder& param(std::string name, std::int64_t def, Range r, std::string help) {
    e_.schema.add({std::move(name), ParamType::Int, def, r, {}, std::move(help)});
    return *this;
  }
  SolverBuilder& param(std::string name, double def, Range r, std::string help) {
    e_.schema.add({std::move(name), ParamType::Real, def, r, {}, std::move(help)});
    return *this;
  }
  SolverBuilder& param(std::string name, bool def, std::string help) {
    e_.schema.add({std::move(name), ParamType::Bool, def, {}, {}, std::move(help)});
    return *this;
  }
  SolverBuilder& param(std::string name, std::string def, std::string help) {
    e_.schema.add({std::move(name), ParamType::String, std::move(def), {}, {}, std::move(help)});
    return *this;
  }
  SolverBuilder& choice(std::string name, std::string def, std::vector<std::string> choices,
                        std::string help) {
    e_.schema.add({std::move(name), ParamType::Choice, std::move(def), {}, std::move(choices),
                   std::move(help)});
    return *this;
  }
  SolverBuilder& memory(MemoryFn fn) {
    e_.memory = [fn = std::move(fn)](const AnyInstance& x, const Params& p) {
      return fn(x.as<Instance>(), p);
    };
    return *this;
  }
  // Registers the solver as present but not runnable here; `reason` goes into skipped rows.
  Registered unavailable(std::string reason) {
    e_.unavailable = std::move(reason);
    Registry::get().add(std::move(e_));
    return {};
  }
  Registered solve(SolveFn fn) {
    e_.solve = [fn = std::move(fn)](const AnyInstance& x, const Params& p, Context& ctx) {
      Outcome<Solution> o = fn(x.as<Instance>(), p, ctx);
      AnyOutcome a;
      a.objective = o.objective;
      a.checksum = o.checksum;
      if (o.solution) a.solution = std::make_shared<const Solution>(std::move(*o.solution));
      return a;
    };
    Registry::get().add(std::move(e_));
    return {};
  }

 private:
  SolverEntry e_;
};

template <class P>
SolverBuilder<P> solver(std::string name, std::string help) {
  return SolverBuilder<P>(std::move(name), std::move(help));
}

}  // namespace dpgpu
