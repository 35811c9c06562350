#include "records/case_record.hpp"

namespace dpgpu {

nlohmann::json to_json(const CaseRecord& r) {
  nlohmann::json j{{"case_id", r.spec.id},
                   {"spec", to_json(r.spec)},
                   {"result", to_json(r.result)},
                   {"wall_s", r.wall_s},
                   {"finished", r.finished}};
  if (!r.worker.is_null()) j["worker"] = r.worker;
  if (r.profile) j["profile"] = to_json(*r.profile);
  return j;
}

CaseRecord case_record_from_json(const nlohmann::json& j) {
  CaseRecord r;
  r.spec = case_spec_from_json(j.at("spec"));
  r.result = case_result_from_json(j.at("result"));
  r.wall_s = j.value("wall_s", 0.0);
  r.finished = j.value("finished", std::string());
  if (j.contains("worker")) r.worker = j["worker"];
  if (j.contains("profile")) r.profile = profile_record_from_json(j["profile"]);
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
