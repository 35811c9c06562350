#include "records/energy_record.hpp"

namespace dpgpu {

nlohmann::json to_json(const EnergyRecord& e) {
  nlohmann::json j{{"method", e.method},
                   {"note", e.note},
                   {"joules", e.joules},
                   {"window_s", e.window_s},
                   {"solve_s", e.solve_s},
                   {"solves", e.solves},
                   {"cards", e.cards},
                   {"sm_min_mhz", e.sm_min_mhz},
                   {"sm_max_mhz", e.sm_max_mhz},
                   {"memory_min_mhz", e.memory_min_mhz},
                   {"memory_max_mhz", e.memory_max_mhz},
                   {"reasons", e.reasons},
                   {"samples", e.samples}};
  if (e.idle_power_w) j["idle_power_w"] = *e.idle_power_w;
  if (e.sampled_joules) j["sampled_joules"] = *e.sampled_joules;
  return j;
}

EnergyRecord energy_record_from_json(const nlohmann::json& j) {
  EnergyRecord e;
  e.method = j.value("method", std::string("n/a"));
  e.note = j.value("note", std::string());
  e.joules = j.value("joules", 0.0);
  e.window_s = j.value("window_s", 0.0);
  e.solve_s = j.value("solve_s", 0.0);
  e.solves = j.value("solves", 0);
  e.cards = j.value("cards", 0);
  e.sm_min_mhz = j.value("sm_min_mhz", 0u);
  e.sm_max_mhz = j.value("sm_max_mhz", 0u);
  e.memory_min_mhz = j.value("memory_min_mhz", 0u);
  e.memory_max_mhz = j.value("memory_max_mhz", 0u);
  e.reasons = j.value("reasons", 0ull);
  e.samples = j.value("samples", 0);
  if (j.contains("idle_power_w")) e.idle_power_w = j["idle_power_w"].get<double>();
  if (j.contains("sampled_joules")) e.sampled_joules = j["sampled_joules"].get<double>();
  return e;
}

}  // namespace dpgpu
