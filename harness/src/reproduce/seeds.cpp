// seeds.cpp — fresh seeds (seeds.hpp).
#include "reproduce/seeds.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <regex>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "experiment/experiment_override.hpp"

namespace dpgpu {

namespace {

// Seeds of one instance source as written: a list, a single value, or the default [1].
std::vector<std::uint64_t> seeds_of(const YAML::Node& source) {
  const YAML::Node s = source["seeds"];
  if (!s) return {1};
  if (s.IsScalar()) return {s.as<std::uint64_t>()};
  std::vector<std::uint64_t> out;
  for (const auto& x : s) out.push_back(x.as<std::uint64_t>());
  return out;
}

void shift_sources(const YAML::Node& instances, const std::string& prefix, std::uint64_t offset,
                   std::vector<std::string>& sets) {
  if (!instances || !instances.IsSequence()) return;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const YAML::Node src = instances[i];
    if (!src.IsMap() || !src["generator"]) continue;
    std::vector<std::uint64_t> seeds = seeds_of(src);
    for (auto& s : seeds) s += offset;
    sets.push_back(fmt::format("{}instances.{}.seeds=[{}]", prefix, i, fmt::join(seeds, ", ")));
  }
}

}  // namespace

std::uint64_t clock_seed_offset() {
  const auto ns = std::chrono::system_clock::now().time_since_epoch().count();
  return 1000 + std::uint64_t(ns < 0 ? -ns : ns) % 1'000'000'000ULL;
}

std::vector<std::string> fresh_seed_sets(const std::filesystem::path& file,
                                         const std::vector<std::string>& sets,
                                         std::uint64_t offset) {
  YAML::Node root;
  try {
    root = YAML::Load(read_whole_file(file));
    apply_overrides(root, parse_overrides(sets), file.string(), 0);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: {}", file.string(), e.msg));
  }
  std::vector<std::string> out;
  if (const YAML::Node parts = root["parts"]; parts && parts.IsSequence()) {
    for (std::size_t p = 0; p < parts.size(); ++p)
      shift_sources(parts[p]["instances"], fmt::format("parts.{}.", p), offset, out);
  } else {
    shift_sources(root["instances"], "", offset, out);
  }
  return out;
}

std::string shifted_instance(const std::string& name, std::uint64_t offset) {
  static const std::regex seeded("^(.*-s)([0-9]+)$");
  std::smatch m;
  if (!std::regex_match(name, m, seeded)) return name;
  return m[1].str() + std::to_string(std::stoull(m[2].str()) + offset);
}

void follow_seeds(Claim& claim, std::uint64_t offset) {
  auto follow = [offset](Selection& s) {
    for (Condition& c : s.conditions) {
      if (c.column != "instance" || c.op == Condition::Op::Matches) continue;
      for (std::string& t : c.texts) t = shifted_instance(t, offset);
    }
  };
  follow(claim.rows);
  if (claim.ratio_to) follow(*claim.ratio_to);
}

}  // namespace dpgpu
