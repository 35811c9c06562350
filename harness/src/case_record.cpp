#include "case_record.hpp"

namespace dpgpu {

nlohmann::json to_json(const CaseRecord& r) {
  nlohmann::json j{{"case_id", r.spec.id}, {"spec", to_json(r.spec)}, {"result", to_json(r.result)},
                   {"wall_s", r.wall_s},   {"finished", r.finished}};
  if (!r.worker.is_null()) j["worker"] = r.worker;
  if (r.profile) {
    const ProfileRecord& p = *r.profile;
    nlohmann::json stats = nlohmann::json::array();
    for (auto& s : p.stats)
      stats.push_back({{"kernel", s.kernel}, {"metric", s.metric}, {"ncu_metric", s.ncu_metric}, {"unit", s.unit},
                       {"min", s.min}, {"mean", s.mean}, {"max", s.max}, {"count", s.count}});
    j["profile"] = {{"ok", p.ok},         {"message", p.message},   {"sampling", p.sampling},
                    {"stats", stats},     {"wall_s", p.wall_s},     {"launches_total", p.launches_total},
                    {"cost_x", p.cost_x}, {"case_wall_s", p.case_wall_s}};
  }
  return j;
}

CaseRecord case_record_from_json(const nlohmann::json& j) {
  CaseRecord r;
  r.spec = case_spec_from_json(j.at("spec"));
  r.result = case_result_from_json(j.at("result"));
  r.wall_s = j.value("wall_s", 0.0);
  r.finished = j.value("finished", std::string());
  if (j.contains("worker")) r.worker = j["worker"];
  if (j.contains("profile")) {
    const auto& p = j["profile"];
    ProfileRecord pr;
    pr.ok = p.at("ok");
    pr.message = p.at("message");
    pr.sampling = p.at("sampling");
    pr.wall_s = p.at("wall_s");
    pr.launches_total = p.at("launches_total");
    pr.cost_x = p.at("cost_x");
    pr.case_wall_s = p.at("case_wall_s");
    for (auto& s : p.at("stats"))
      pr.stats.push_back({s.at("kernel"), s.at("metric"), s.at("ncu_metric"), s.at("unit"), s.at("min"), s.at("mean"),
                          s.at("max"), s.at("count")});
    r.profile = std::move(pr);
  }
  return r;
}

CaseResult unrun_result(const CaseSpec& spec) {
  CaseResult r;
  r.message = spec.reason;
  switch (spec.decision) {
    case Decision::Skip: r.status = Status::Skipped; break;
    case Decision::Refuse: r.status = Status::Oom, r.refused = true; break;
    case Decision::Run: r.status = Status::Error, r.message = "not run"; break;
  }
  return r;
}

bool is_failure(const CaseRecord& r, Status s) {
  if (s == Status::Ok || s == Status::Skipped) return false;
  if (s == Status::Oom && r.result.refused) return false;
  return true;
}

std::optional<double> work_of(const CaseSpec& spec, const RepRecord& rep) {
  if (spec.work_counter.empty()) return spec.work;
  auto it = rep.counters.find(spec.work_counter);
  if (it == rep.counters.end()) return std::nullopt;
  return it->second;
}

}  // namespace dpgpu
