// claim_sets.cpp — claims in step with a reproduction (claim_sets.hpp).
#include "reproduce/claim_sets.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "reproduce/seeds.hpp"

namespace dpgpu {

namespace {

const char* const kSides[] = {"rows", "ratio_to", "at"};

// The instance condition's value with its seed shifted; true when it changed.
bool shift(YAML::Node value, std::uint64_t offset) {
  bool changed = false;
  auto one = [&](YAML::Node n) {
    if (!n.IsScalar()) return;
    const std::string s = shifted_instance(n.Scalar(), offset);
    if (s != n.Scalar()) n = s, changed = true;
  };
  if (value.IsSequence())
    for (YAML::Node n : value) one(n);
  else
    one(value);
  return changed;
}

std::string flow(const YAML::Node& n) {
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

}  // namespace

std::vector<std::string> claim_sets(const std::filesystem::path& file, const Tier& tier,
                                    std::uint64_t seed_offset) {
  YAML::Node root;
  try {
    root = YAML::Load(read_whole_file(file));
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: {}", file.string(), e.msg));
  }
  const YAML::Node claims = root["claims"];
  if (!claims || !claims.IsSequence()) return {};
  std::vector<std::string> sets;
  YAML::Node kept(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    YAML::Node c = YAML::Clone(claims[i]);
    if (c["id"] && tier.full_only.count(c["id"].Scalar())) continue;
    for (const char* side : kSides) {
      YAML::Node sel = c[side];
      if (!sel || !sel.IsMap() || !sel["instance"] || !seed_offset) continue;
      if (shift(sel["instance"], seed_offset))
        sets.push_back(fmt::format("claims.{}.{}.instance={}", i, side, flow(sel["instance"])));
    }
    kept.push_back(c);
  }
  if (tier.full_only.empty()) return sets;
  // The run's file is the tier's variant: its own tiers (whose full_only names the claims
  // just left out) go too.
  return {"claims=" + flow(kept), "tiers={}"};
}

}  // namespace dpgpu
