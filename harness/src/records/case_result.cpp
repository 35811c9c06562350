#include "records/case_result.hpp"

#include <stdexcept>

namespace dpgpu {

namespace {
const char* kStatusNames[] = {"ok", "invalid", "error", "timeout", "skipped", "oom"};
}

const char* to_string(Status s) { return kStatusNames[static_cast<int>(s)]; }

Status status_from_string(const std::string& s) {
  for (int i = 0; i < 6; ++i)
    if (s == kStatusNames[i]) return static_cast<Status>(i);
  throw std::runtime_error("unknown status '" + s + "'");
}

nlohmann::json to_json(const ProfileRecord& p) {
  nlohmann::json stats = nlohmann::json::array();
  for (auto& s : p.stats)
    stats.push_back({{"kernel", s.kernel},
                     {"metric", s.metric},
                     {"ncu_metric", s.ncu_metric},
                     {"unit", s.unit},
                     {"min", s.min},
                     {"mean", s.mean},
                     {"max", s.max},
                     {"count", s.count}});
  return {{"ok", p.ok},
          {"backend", p.backend},
          {"unavailable", p.unavailable},
          {"message", p.message},
          {"sampling", p.sampling},
          {"stats", stats},
          {"wall_s", p.wall_s},
          {"launches_total", p.launches_total},
          {"cost_x", p.cost_x},
          {"case_wall_s", p.case_wall_s}};
}

ProfileRecord profile_record_from_json(const nlohmann::json& p) {
  ProfileRecord pr;
  pr.ok = p.at("ok");
  pr.backend = p.value("backend", std::string("ncu"));  // journals from before the CUPTI backend
  pr.unavailable = p.value("unavailable", false);
  pr.message = p.at("message");
  pr.sampling = p.at("sampling");
  pr.wall_s = p.at("wall_s");
  pr.launches_total = p.at("launches_total");
  pr.cost_x = p.at("cost_x");
  pr.case_wall_s = p.at("case_wall_s");
  for (auto& s : p.at("stats"))
    pr.stats.push_back({s.at("kernel"), s.at("metric"), s.at("ncu_metric"), s.at("unit"),
                        s.at("min"), s.at("mean"), s.at("max"), s.at("count")});
  return pr;
}

nlohmann::json to_json(const CaseResult& r) {
  nlohmann::json reps = nlohmann::json::array();
  for (auto& x : r.reps) {
    nlohmann::json j{
        {"rep", x.rep},           {"status", to_string(x.status)}, {"objective", x.objective},
        {"time_s", x.time_s},     {"harness_s", x.harness_s},      {"phases", x.phases},
        {"counters", x.counters}, {"message", x.message}};
    if (x.valid) j["valid"] = *x.valid;
    if (x.checksum) j["checksum"] = *x.checksum;
    reps.push_back(std::move(j));
  }
  nlohmann::json series = nlohmann::json::array();
  for (auto& p : r.series) series.push_back({p.name, p.index, p.value});
  nlohmann::json j{{"status", to_string(r.status)},
                   {"message", r.message},
                   {"reps", reps},
                   {"wall_s", r.wall_s},
                   {"fixed_s", r.fixed_s},
                   {"refused", r.refused},
                   {"gpu_start", r.gpu_start},
                   {"gpu_end", r.gpu_end},
                   {"series", series},
                   {"series_message", r.series_message}};
  if (r.profile) j["profile"] = to_json(*r.profile);
  if (r.energy) j["energy"] = to_json(*r.energy);
  if (r.killed_by_signal) j["killed_by_signal"] = r.killed_by_signal;
  return j;
}

CaseResult case_result_from_json(const nlohmann::json& j) {
  CaseResult r;
  r.status = status_from_string(j.at("status"));
  r.message = j.at("message");
  r.wall_s = j.value("wall_s", 0.0);
  r.fixed_s = j.value("fixed_s", 0.0);
  r.refused = j.value("refused", false);
  r.killed_by_signal = j.value("killed_by_signal", 0);
  r.gpu_start = j.value("gpu_start", nlohmann::json());
  r.gpu_end = j.value("gpu_end", nlohmann::json());
  r.series_message = j.value("series_message", std::string());
  if (j.contains("series"))
    for (auto& p : j["series"])
      r.series.push_back(
          {p.at(0).get<std::string>(), p.at(1).get<std::size_t>(), p.at(2).get<double>()});
  if (j.contains("profile")) r.profile = profile_record_from_json(j["profile"]);
  if (j.contains("energy")) r.energy = energy_record_from_json(j["energy"]);
  for (auto& x : j.at("reps")) {
    RepRecord rec;
    rec.rep = x.at("rep");
    rec.status = status_from_string(x.at("status"));
    rec.objective = x.at("objective");
    rec.time_s = x.at("time_s");
    rec.harness_s = x.value("harness_s", 0.0);
    rec.phases = x.at("phases").get<std::map<std::string, double>>();
    rec.counters = x.at("counters").get<std::map<std::string, double>>();
    rec.message = x.at("message");
    if (x.contains("valid")) rec.valid = x["valid"].get<bool>();
    if (x.contains("checksum")) rec.checksum = x["checksum"].get<std::uint64_t>();
    r.reps.push_back(std::move(rec));
  }
  return r;
}

CaseResult failed_result(Status status, std::string message) {
  CaseResult r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

}  // namespace dpgpu
