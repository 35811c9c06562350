// claims_pin.cpp — a folder's pinned claims (claims_pin.hpp).
#include "verify/claims_pin.hpp"

#include <fmt/format.h>

#include <ctime>
#include <map>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "records/csv_table.hpp"
#include "verify/claim_eval.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

const char* const kPinKeys[] = {"min_rows", "min_instances", "revised"};
const char* const kBoundKeys[] = {"at_least",  "at_most",  "equals",         "within", "scales_as",
                                  "power_fit", "exponent", "extrapolate_to", "reduce"};

YAML::Node load(const fs::path& file) {
  try {
    return YAML::Load(read_whole_file(file));
  } catch (const YAML::Exception& e) {
    throw InputError(
        fmt::format("{}:{}:{}: {}", file.string(), e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

// The claims of a file by id, in order.
std::vector<std::pair<std::string, YAML::Node>> claim_nodes(const fs::path& file) {
  std::vector<std::pair<std::string, YAML::Node>> out;
  const YAML::Node root = load(file);
  if (!root.IsMap() || !root["claims"] || !root["claims"].IsSequence()) return out;
  for (const auto& c : root["claims"])
    if (c.IsMap() && c["id"] && c["id"].IsScalar()) out.emplace_back(c["id"].Scalar(), c);
  return out;
}

// A claim as text without its pin-only keys, to compare two versions.
std::string essence(const YAML::Node& claim) {
  YAML::Node copy = YAML::Clone(claim);
  for (const char* k : kPinKeys) copy.remove(k);
  YAML::Emitter e;
  e << YAML::Flow << copy;
  return e.c_str();
}

// "at_least: 3" — the claim's bound as written.
std::string bounds(const YAML::Node& claim) {
  std::vector<std::string> parts;
  for (const char* k : kBoundKeys)
    if (claim[k] && claim[k].IsScalar())
      parts.push_back(fmt::format("{}: {}", k, claim[k].Scalar()));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// The claim as pinned: its written keys, then coverage and history.
YAML::Node pinned_claim(const YAML::Node& written, const Claim& parsed,
                        const std::vector<ClaimRow>& rows, const YAML::Node* previous,
                        const std::string& source, const std::string& today,
                        std::vector<std::string>& changes) {
  YAML::Node out = YAML::Clone(written);
  Claim bare = parsed;
  bare.min_rows.reset(), bare.min_instances.reset();
  const ClaimOutcome o = evaluate_claim(bare, rows);
  if (!written["min_rows"]) out["min_rows"] = o.rows;
  if (!written["min_instances"]) out["min_instances"] = o.instances;
  YAML::Node history = written["revised"] ? YAML::Clone(written["revised"]) : YAML::Node();
  if (previous) {
    const std::string was = bounds(*previous), now = bounds(written);
    bool recorded = false;
    for (const auto& r : history)
      if (r["old"] && r["old"].Scalar() == was) recorded = true;
    if (was != now && !recorded) {
      YAML::Node rev;
      rev["date"] = today;
      rev["old"] = was;
      rev["why"] = fmt::format("re-pinned from {} by dpgpu verify --update-claims", source);
      history.push_back(rev);
      changes.push_back(fmt::format("{}: {} -> {}", parsed.id, was, now));
    }
  }
  if (history.size() > 0) out["revised"] = history;
  return out;
}

}  // namespace

std::map<std::string, std::string> not_checked(const fs::path& pinned_file) {
  std::map<std::string, std::string> out;
  if (!fs::exists(pinned_file)) return out;
  const YAML::Node root = load(pinned_file);
  if (root.IsMap() && root["not_checked"] && root["not_checked"].IsMap())
    for (const auto& kv : root["not_checked"]) out[kv.first.Scalar()] = kv.second.Scalar();
  return out;
}

std::string claims_drift(const fs::path& experiment_file, const fs::path& pinned_file) {
  const auto now = claim_nodes(experiment_file), pinned = claim_nodes(pinned_file);
  std::map<std::string, std::string> was;
  for (auto& [id, node] : pinned) was[id] = essence(node);
  const auto skipped = not_checked(pinned_file);
  std::vector<std::string> added, changed, removed;
  for (auto& [id, node] : now) {
    auto it = was.find(id);
    if (it == was.end()) {
      if (!skipped.count(id)) added.push_back(id);
      continue;
    }
    if (it->second != essence(node)) changed.push_back(id);
    was.erase(it);
  }
  for (auto& [id, text] : was) removed.push_back(id);
  std::vector<std::string> parts;
  if (!added.empty()) parts.push_back(fmt::format("added {}", fmt::join(added, ", ")));
  if (!changed.empty()) parts.push_back(fmt::format("changed {}", fmt::join(changed, ", ")));
  if (!removed.empty()) parts.push_back(fmt::format("removed {}", fmt::join(removed, ", ")));
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<std::string> pin_claims(const fs::path& dir, const fs::path& source,
                                    const std::string& experiment,
                                    const std::vector<ClaimRow>& rows, const std::string& today) {
  const std::vector<Claim> parsed = read_claims_file(source.string()).claims;
  const auto written = claim_nodes(source);
  std::map<std::string, YAML::Node> previous;
  if (fs::exists(dir / kClaimsFile))
    for (auto& [id, node] : claim_nodes(dir / kClaimsFile)) previous[id] = node;
  std::vector<std::string> changes;
  const auto skipped = not_checked(dir / kClaimsFile);
  YAML::Node list(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < parsed.size() && i < written.size(); ++i) {
    if (skipped.count(parsed[i].id)) continue;
    auto prev = previous.find(parsed[i].id);
    list.push_back(pinned_claim(written[i].second, parsed[i], rows,
                                prev == previous.end() ? nullptr : &prev->second,
                                source.filename().string(), today, changes));
  }
  YAML::Emitter e;
  e << YAML::BeginMap << YAML::Key << "experiment" << YAML::Value << experiment;
  e << YAML::Key << "pinned" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "date"
    << YAML::Value << today << YAML::Key << "from" << YAML::Value << source.filename().string()
    << YAML::EndMap;
  e << YAML::Key << "claims" << YAML::Value << list;
  if (!skipped.empty()) {
    e << YAML::Key << "not_checked" << YAML::Value << YAML::BeginMap;
    for (auto& [id, why] : skipped) e << YAML::Key << id << YAML::Value << why;
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
  write_file_atomically(dir / kClaimsFile,
                        "# The claims `dpgpu verify` checks this folder against, pinned by\n"
                        "# `dpgpu verify --update-claims` (claims_pin.hpp). Do not edit the\n"
                        "# bounds here: edit the experiment file and re-pin.\n" +
                            std::string(e.c_str()) + "\n");
  return changes;
}

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

}  // namespace dpgpu
