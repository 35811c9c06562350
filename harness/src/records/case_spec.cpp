#include "records/case_spec.hpp"

#include <algorithm>
#include <variant>

#include <stdexcept>

namespace dpgpu {

const char* to_string(Decision d) {
  switch (d) {
    case Decision::Run: return "run";
    case Decision::Skip: return "skip";
    case Decision::Refuse: return "refuse";
  }
  return "?";
}

namespace {

Decision decision_from_string(const std::string& s) {
  for (Decision d : {Decision::Run, Decision::Skip, Decision::Refuse})
    if (s == to_string(d)) return d;
  throw std::runtime_error("unknown decision '" + s + "'");
}

}  // namespace

// JSON keeps the value's type: true, 5, 5.0, "text".
nlohmann::json to_json(const ValueMap& m) {
  nlohmann::json j = nlohmann::json::object();
  for (auto& [k, v] : m) std::visit([&, &key = k](auto& x) { j[key] = x; }, v);
  return j;
}

ValueMap value_map_from_json(const nlohmann::json& j) {
  ValueMap m;
  for (auto& [k, v] : j.items()) {
    if (v.is_boolean())
      m[k] = v.get<bool>();
    else if (v.is_number_integer())
      m[k] = v.get<std::int64_t>();
    else if (v.is_number())
      m[k] = v.get<double>();
    else
      m[k] = v.get<std::string>();
  }
  return m;
}

nlohmann::json to_json(const CaseSpec& c) {
  nlohmann::json recipe{{"generator", c.recipe.generator}, {"params", to_json(c.recipe.params)},
                        {"seed", c.recipe.seed},           {"files", c.recipe.files},
                        {"select", c.recipe.select},       {"loaded_index", c.recipe.loaded_index}};
  nlohmann::json j{{"id", c.id},
                   {"experiment", c.experiment},
                   {"problem", c.problem},
                   {"part", c.part},
                   {"recipe", recipe},
                   {"instance_key", c.instance_key},
                   {"instance_name", c.instance_name},
                   {"has_seed", c.has_seed},
                   {"instance_params", to_json(c.instance_params)},
                   {"dims", to_json(c.dims)},
                   {"work", c.work},
                   {"work_counter", c.work_counter},
                   {"solver", c.solver},
                   {"backend", c.backend == Backend::Gpu ? "gpu" : "cpu"},
                   {"solver_params", to_json(c.solver_params)},
                   {"repetitions", c.measure.repetitions},
                   {"warmup", c.measure.warmup},
                   {"max_repetitions", c.measure.max_repetitions},
                   {"cold", c.measure.cold},
                   {"series", c.measure.series},
                   {"timeout_s", c.measure.timeout_s},
                   {"energy_window_s", c.measure.energy_window_s},
                   {"isolate", c.isolate},
                   {"verbose", c.verbose},
                   {"decision", to_string(c.decision)},
                   {"reason", c.reason}};
  if (c.known_optimum) j["known_optimum"] = *c.known_optimum;
  if (c.recipe.optimum) j["recipe"]["optimum"] = *c.recipe.optimum;
  if (!c.recipe.file_hashes.empty()) j["recipe"]["file_hashes"] = c.recipe.file_hashes;
  if (c.measure.max_noise) j["max_noise"] = *c.measure.max_noise;
  if (c.profile)
    j["profile"] = {{"names", c.profile->names},
                    {"metrics", c.profile->metrics},
                    {"max_launches", c.profile->max_launches},
                    {"flush_caches", c.profile->flush_caches}};
  return j;
}

CaseSpec case_spec_from_json(const nlohmann::json& j) {
  CaseSpec c;
  c.id = j.at("id");
  c.experiment = j.at("experiment");
  c.problem = j.at("problem");
  c.part = j.at("part");
  const auto& r = j.at("recipe");
  c.recipe.generator = r.at("generator");
  c.recipe.params = value_map_from_json(r.at("params"));
  c.recipe.seed = r.at("seed");
  c.recipe.files = r.at("files").get<std::vector<std::string>>();
  c.recipe.select = r.at("select");
  c.recipe.loaded_index = r.at("loaded_index");
  if (r.contains("optimum")) c.recipe.optimum = r["optimum"].get<Objective>();
  if (r.contains("file_hashes"))
    c.recipe.file_hashes = r["file_hashes"].get<std::vector<std::string>>();
  c.instance_key = j.at("instance_key");
  c.instance_name = j.at("instance_name");
  c.has_seed = j.at("has_seed");
  c.instance_params = value_map_from_json(j.at("instance_params"));
  c.dims = value_map_from_json(j.at("dims"));
  c.work = j.at("work");
  c.work_counter = j.value("work_counter", "");
  if (j.contains("known_optimum")) c.known_optimum = j["known_optimum"].get<Objective>();
  c.solver = j.at("solver");
  c.backend = j.at("backend") == "gpu" ? Backend::Gpu : Backend::Cpu;
  c.solver_params = value_map_from_json(j.at("solver_params"));
  c.measure.repetitions = j.at("repetitions");
  c.measure.warmup = j.at("warmup");
  c.measure.max_repetitions = j.at("max_repetitions");
  if (j.contains("max_noise")) c.measure.max_noise = j["max_noise"].get<double>();
  c.measure.cold = j.at("cold");
  c.measure.series = j.at("series");
  c.measure.timeout_s = j.at("timeout_s");
  c.measure.energy_window_s = j.value("energy_window_s", 1.0);
  c.isolate = j.at("isolate");
  c.verbose = j.at("verbose");
  c.decision = decision_from_string(j.at("decision"));
  c.reason = j.at("reason");
  if (j.contains("profile")) {
    const auto& p = j["profile"];
    c.profile = ProfileRequest{p.at("names"), p.at("metrics"), p.at("max_launches"),
                               p.value("flush_caches", true)};
  }
  return c;
}

int cards_wanted(Backend backend, const ValueMap& solver_params) {
  if (backend != Backend::Gpu) return 0;
  const auto it = solver_params.find("gpus");
  if (it == solver_params.end() || !std::holds_alternative<std::int64_t>(it->second)) return 1;
  return int(std::max<std::int64_t>(1, std::get<std::int64_t>(it->second)));
}
int cards_wanted(const CaseSpec& c) { return cards_wanted(c.backend, c.solver_params); }

}  // namespace dpgpu
