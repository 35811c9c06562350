#include "results/journal_line.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "records/hash_text.hpp"
#include "results/journal.hpp"

namespace dpgpu {

namespace {

// The text before `,"check":"<hash>"}` ends a checked line, or npos.
std::size_t check_suffix_at(const std::string& line) {
  static const std::string head = std::string(",\"") + kCheckKey + "\":\"";
  const std::size_t size = head.size() + 16 + 2;  // + the hash and "}
  if (line.size() < size + 1) return std::string::npos;
  const std::size_t at = line.size() - size;
  if (line.compare(at, head.size(), head) != 0 || line.compare(line.size() - 2, 2, "\"}") != 0)
    return std::string::npos;
  return at;
}

// Keys of a record line, every dpgpu version: a line without checksum holding another key was
// changed after it was written.
bool known_key(const std::string& key) {
  static const std::set<std::string> keys{"case_id",  "spec",   "result",  "wall_s",
                                          "finished", "worker", "profile", kRerunKey};
  return keys.count(key) > 0;
}

std::string bad_time(const char* what, double t) {
  constexpr double kYear = 365.0 * 24 * 3600;
  if (std::isfinite(t) && t >= 0 && t <= kYear) return {};
  return fmt::format("{} is {} (a time must be finite, at least 0 and below a year)", what, t);
}

}  // namespace

std::string journal_line(const nlohmann::json& record) {
  const std::string text = record.dump();
  return text.substr(0, text.size() - 1) + ",\"" + kCheckKey + "\":\"" + hash_text(text) + "\"}\n";
}

std::string implausible_values(const CaseRecord& r) {
  for (auto [what, t] : {std::pair{"wall_s", r.wall_s}, std::pair{"result.wall_s", r.result.wall_s},
                         std::pair{"result.fixed_s", r.result.fixed_s}})
    if (auto why = bad_time(what, t); !why.empty()) return why;
  for (const RepRecord& rep : r.result.reps) {
    if (auto why = bad_time("a repetition's time_s", rep.time_s); !why.empty()) return why;
    if (auto why = bad_time("a repetition's harness_s", rep.harness_s); !why.empty()) return why;
    for (auto& [phase, t] : rep.phases)
      if (auto why = bad_time(("phase " + phase).c_str(), t); !why.empty()) return why;
  }
  if (r.result.status == Status::Ok && r.result.reps.empty())
    return "status ok without a single repetition";
  return {};
}

ReadLine read_journal_line(const std::string& line) {
  ReadLine out;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const std::exception&) {
    out.why = "not JSON";
    return out;
  }
  if (!j.is_object()) {
    out.why = "not a record";
    return out;
  }
  if (j.contains(kCheckKey)) {
    const std::size_t at = check_suffix_at(line);
    if (at == std::string::npos || !j[kCheckKey].is_string() ||
        hash_text(line.substr(0, at) + "}") != j[kCheckKey].get<std::string>()) {
      out.why = "checksum mismatch";
      return out;
    }
    out.checked = true;
    j.erase(kCheckKey);
  } else {
    for (auto& [key, value] : j.items())
      if (!known_key(key)) {
        out.why = fmt::format("no checksum, and a key no record has ('{}')", key);
        return out;
      }
  }
  try {
    CaseRecord rec = case_record_from_json(j);
    if (auto why = implausible_values(rec); !why.empty()) {
      out.why = why;
      return out;
    }
    out.record = std::move(rec);
  } catch (const std::exception& e) {
    out.why = std::string("not a case record (") + e.what() + ")";
    return out;
  }
  if (j.contains(kRerunKey)) {
    const nlohmann::json& r = j[kRerunKey];
    out.rerun = r.is_string() ? r.get<std::string>() : r == true ? "true" : "";
  }
  return out;
}

}  // namespace dpgpu
