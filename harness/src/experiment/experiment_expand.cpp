// experiment_expand.cpp — an experiment's sweeps multiplied out into instance points and
// solver points; every case the runner measures is one of each.
#include <fmt/format.h>

#include <algorithm>

#include "dpgpu/error.hpp"
#include "experiment/all_gpus.hpp"
#include "experiment/experiment.hpp"

namespace dpgpu {

std::string Where::str() const {
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

const Where& SolverSpec::where_named(const std::string& message) const {
  // The key the message names first ("'explorers' = 1000 is not a power of 'arity'").
  const Where* at = &where;
  std::size_t first = std::string::npos;
  for (const Axis& axis : params)
    if (auto pos = message.find("'" + axis.key + "'"); pos < first) first = pos, at = &axis.where;
  return *at;
}

namespace {

// Every combination of the axes' values, in file order: the first axis slowest, the last
// fastest. No axes give one empty combination (all defaults).
std::vector<ValueMap> combinations(const std::vector<Axis>& axes) {
  std::vector<ValueMap> out{ValueMap{}};
  for (const Axis& axis : axes) {
    std::vector<ValueMap> longer;
    for (const ValueMap& partial : out)
      for (const Value& v : axis.values) {
        longer.push_back(partial);
        longer.back()[axis.key] = v;
      }
    out = std::move(longer);
  }
  return out;
}

// "name[k=v,...]" with only the keys the file gave, sorted (ValueMap is ordered), so a
// label stays short and does not change when a default does.
std::string label(const std::string& name, const ValueMap& given) {
  if (given.empty()) return name;
  std::vector<std::string> parts;
  for (const auto& [key, value] : given) parts.push_back(key + "=" + to_string(value));
  return fmt::format("{}[{}]", name, fmt::join(parts, ","));
}

// "a.fa,b.fa", or "a.fa:name" when one instance is selected from the file.
std::string file_label(const FileSource& files) {
  std::vector<std::string> names;
  for (const auto& p : files.paths) names.push_back(p.filename().string());
  std::string out = fmt::format("{}", fmt::join(names, ","));
  return files.select.empty() ? out : out + ":" + files.select;
}

const ProblemEntry& problem_of(const Experiment& e) {
  if (const ProblemEntry* p = Registry::get().problem(e.problem)) return *p;
  throw InputError(fmt::format("{}: unknown problem '{}'", e.path.string(), e.problem));
}

void add_generated_points(const ProblemEntry& problem, std::size_t index, const InstanceSource& s,
                          std::vector<InstancePoint>& out) {
  const GeneratorEntry* gen = problem.generator(s.generator);
  if (!gen) throw InputError(fmt::format("{}: unknown generator '{}'", s.where.str(), s.generator));
  const std::string owner = fmt::format("{}: generator '{}'", s.where.str(), gen->name);
  for (const ValueMap& given : combinations(s.params)) {
    Params params = gen->schema.resolve(given, owner);
    for (std::uint64_t seed : s.seeds)
      out.push_back({index, params, seed, fmt::format("{}#{}", label(gen->name, given), seed)});
  }
}

std::vector<InstancePoint> instance_points(const Experiment& e) {
  const ProblemEntry& problem = problem_of(e);
  std::vector<InstancePoint> out;
  for (std::size_t i = 0; i < e.instances.size(); ++i) {
    const InstanceSource& s = e.instances[i];
    if (s.generator.empty())
      out.push_back({i, Params{}, 0, file_label(s.file)});
    else
      add_generated_points(problem, i, s, out);
  }
  return out;
}

// The given values with `gpus: all` replaced by the host's GPU count (at least 1).
ValueMap with_host_gpus(ValueMap given, int host_cards) {
  for (auto& [key, value] : given)
    if (is_all_gpus(key, value)) value = Value(std::int64_t(std::max(1, host_cards)));
  return given;
}

std::vector<SolverPoint> solver_points(const Experiment& e, int host_cards) {
  std::vector<SolverPoint> out;
  for (std::size_t i = 0; i < e.solvers.size(); ++i) {
    const SolverSpec& spec = e.solvers[i];
    const SolverEntry* solver = Registry::get().solver(e.problem, spec.name);
    if (!solver)
      throw InputError(fmt::format("{}: unknown solver '{}' for problem '{}'", spec.where.str(),
                                   spec.name, e.problem));
    for (const ValueMap& given : combinations(spec.params)) {
      // Each value passed its own checks while parsing; what fails here is a rule across
      // parameters, reported at the first key it names.
      Params params;
      try {
        params = solver->schema.resolve(with_host_gpus(given, host_cards));
      } catch (const InputError& err) {
        throw InputError(fmt::format("{}: solver '{}': {} (at {})",
                                     spec.where_named(err.what()).str(), spec.name, err.what(),
                                     label(spec.name, given)));
      }
      out.push_back({i, solver, std::move(params), label(spec.name, given)});
    }
  }
  return out;
}

}  // namespace

bool is_all_gpus(const std::string& key, const Value& v) {
  const auto* text = std::get_if<std::string>(&v);
  return key == "gpus" && text && *text == "all";
}

Plan expand(const Experiment& e, int host_cards) {
  return {instance_points(e), solver_points(e, host_cards)};
}

Plan expand(const Experiment& e) { return expand(e, 1); }

}  // namespace dpgpu
