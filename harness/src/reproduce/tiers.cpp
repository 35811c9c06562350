// tiers.cpp — the `tiers:` key (tiers.hpp).
#include "reproduce/tiers.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <regex>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "experiment/experiment_override.hpp"

namespace dpgpu {

namespace {

[[noreturn]] void fail(const std::string& file, const YAML::Node& at, const std::string& path,
                       const std::string& why) {
  const YAML::Mark m = at.Mark();
  throw InputError(fmt::format("{}:{}:{}: {}: {}", file, m.is_null() ? 0 : m.line + 1,
                               m.is_null() ? 0 : m.column + 1, path, why));
}

std::string scalar(const std::string& file, const YAML::Node& n, const std::string& path) {
  if (!n.IsScalar() || n.Scalar().empty()) fail(file, n, path, "expected a text");
  return n.Scalar();
}

void check_keys(const std::string& file, const YAML::Node& map, const std::string& path,
                const std::vector<std::string>& allowed) {
  if (!map.IsMap()) fail(file, map, path, "expected a map");
  for (const auto& kv : map) {
    const std::string key = kv.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(file, kv.first, path,
           fmt::format("unknown key '{}' (allowed: {})", key, fmt::join(allowed, ", ")));
  }
}

Tier read_tier(const std::string& file, const YAML::Node& node, const std::string& path) {
  check_keys(file, node, path, {"set", "filter", "full_only", "skip"});
  Tier t;
  if (const YAML::Node sets = node["set"]) {
    if (!sets.IsSequence()) fail(file, sets, path + ".set", "expected a list of PATH=VALUE");
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const std::string where = fmt::format("{}.set[{}]", path, i);
      t.sets.push_back(scalar(file, sets[i], where));
      try {
        parse_override(t.sets.back());
      } catch (const InputError& e) {
        fail(file, sets[i], where, e.what());
      }
    }
  }
  if (const YAML::Node f = node["filter"]) t.filter = scalar(file, f, path + ".filter");
  if (const YAML::Node s = node["skip"]) t.skip = scalar(file, s, path + ".skip");
  if (const YAML::Node fo = node["full_only"]) {
    if (!fo.IsMap()) fail(file, fo, path + ".full_only", "expected a map: claim id: why");
    for (const auto& kv : fo)
      t.full_only[kv.first.Scalar()] =
          scalar(file, kv.second, path + ".full_only." + kv.first.Scalar());
  }
  return t;
}

}  // namespace

const std::vector<std::string>& tier_names() {
  static const std::vector<std::string> names{"quick", "full"};
  return names;
}

std::map<std::string, Tier> read_tiers(const YAML::Node& tiers, const std::string& file) {
  check_keys(file, tiers, "tiers", {"quick"});
  std::map<std::string, Tier> out;
  for (const auto& kv : tiers) {
    const std::string name = kv.first.Scalar();
    out[name] = read_tier(file, kv.second, "tiers." + name);
  }
  return out;
}

void check_tiers(const YAML::Node& tiers, const YAML::Node& root, const std::string& file,
                 const std::vector<Claim>& claims) {
  const auto read = read_tiers(tiers, file);
  for (const auto& [name, tier] : read) {
    const YAML::Node node = tiers[name];
    try {
      apply_overrides(YAML::Clone(root), parse_overrides(tier.sets), file, 0);
    } catch (const InputError& e) {
      fail(file, node["set"], "tiers." + name + ".set", e.what());
    }
    try {
      if (!tier.filter.empty()) std::regex(tier.filter, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      fail(file, node["filter"], "tiers." + name + ".filter",
           fmt::format("not a regular expression: {}", e.what()));
    }
    for (const auto& entry : tier.full_only) {
      const std::string& id = entry.first;  // a named copy: clang 14 cannot capture a binding
      if (std::none_of(claims.begin(), claims.end(), [&](const Claim& c) { return c.id == id; }))
        fail(file, node["full_only"], "tiers." + name + ".full_only",
             fmt::format("'{}' is no claim of this file", id));
    }
  }
}

std::map<std::string, Tier> read_tiers_file(const std::filesystem::path& file) {
  YAML::Node root;
  try {
    root = YAML::Load(read_whole_file(file));
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: not YAML: {}", file.string(), e.msg));
  }
  if (!root.IsMap() || !root["tiers"]) return {};
  return read_tiers(root["tiers"], file.string());
}

}  // namespace dpgpu
