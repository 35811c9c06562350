#include "results/counter_declarations.hpp"

#include <iostream>

#include "dpgpu/registry.hpp"
#include "dpgpu/text_file.hpp"
#include "records/csv_table.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

const char* kAbout =
    "the counters each solver declares (dpgpu list --counters): kind count, bytes, rate (per "
    "second), ratio or seconds; unit: what a count or rate counts";

nlohmann::json spec_json(const CounterSpec& c) {
  return {{"kind", counter_kind_name(c.kind)}, {"unit", c.unit}, {"help", c.help}};
}

// The file's document, or null when it is missing or unreadable (a warning: it only labels).
nlohmann::json read_declarations(const fs::path& file) {
  if (!fs::exists(file)) return nullptr;
  try {
    nlohmann::json doc = nlohmann::json::parse(read_whole_file(file));
    if (doc.contains("solvers") && doc["solvers"].is_object()) return doc;
  } catch (const std::exception& e) {
    std::cerr << "warning: " << file.string() << ": unreadable (" << e.what() << "), not kept\n";
  }
  return nullptr;
}

// `into`'s solvers with `from`'s added where `into` has none of that problem and name.
void add_missing(nlohmann::json& into, const nlohmann::json& from) {
  for (const auto& [problem, solvers] : from.at("solvers").items())
    for (const auto& [name, declared] : solvers.items())
      if (!into["solvers"][problem].contains(name)) into["solvers"][problem][name] = declared;
}

}  // namespace

nlohmann::json solver_counters_json(const SolverEntry& solver) {
  nlohmann::json counters = nlohmann::json::object();
  for (const CounterSpec& c : solver.counters) counters[c.name] = spec_json(c);
  for (const CounterSpec& c : harness_counters())
    if (!counters.contains(c.name)) counters[c.name] = spec_json(c);
  return {{"work_counter", solver.work_counter}, {"counters", counters}};
}

nlohmann::json counter_declarations(const RunPlan& plan) {
  nlohmann::json doc{{"about", kAbout}, {"solvers", nlohmann::json::object()}};
  for (const CaseSpec& c : plan.cases)
    if (const SolverEntry* s = Registry::get().solver(c.problem, c.solver))
      doc["solvers"][c.problem][c.solver] = solver_counters_json(*s);
  return doc;
}

void write_counter_declarations(const fs::path& dir, const RunPlan& plan) {
  nlohmann::json doc = counter_declarations(plan);
  if (nlohmann::json old = read_declarations(dir / kCountersFile); !old.is_null())
    add_missing(doc, old);
  write_file_atomically(dir / kCountersFile, doc.dump(1) + "\n");
}

nlohmann::json merged_counter_declarations(const std::vector<fs::path>& dirs) {
  nlohmann::json doc;
  for (const fs::path& dir : dirs) {
    nlohmann::json one = read_declarations(dir / kCountersFile);
    if (one.is_null()) continue;
    if (doc.is_null())
      doc = std::move(one);
    else
      add_missing(doc, one);
  }
  return doc;
}

}  // namespace dpgpu
