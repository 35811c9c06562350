// reproduce_plan.cpp — the experiments `dpgpu reproduce` runs and their copies
// (reproduce_plan.hpp).
#include "verify/reproduce_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "records/csv_table.hpp"
#include "verify/claims_pin.hpp"
#include "verify/results_rows.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

// results/reference/<gpu>/<name> with pinned claims.
fs::path reference_folder(const fs::path& root, const std::string& name) {
  std::vector<fs::path> found;
  if (!fs::is_directory(root)) return {};
  for (auto& gpu : fs::directory_iterator(root))
    if (gpu.is_directory() && fs::exists(gpu.path() / name / kClaimsFile))
      found.push_back(gpu.path() / name);
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path() : found.front();
}

// The smaller half of a list of numbers (at least one), as fresh nodes (no aliases).
void keep_smaller_half(YAML::Node list) {
  std::vector<std::pair<double, std::string>> items;
  for (const auto& v : list) {
    auto x = v.IsScalar() ? cell_number(v.Scalar()) : std::nullopt;
    if (!x) return;  // not a numeric sweep
    items.emplace_back(*x, v.Scalar());
  }
  if (items.size() < 2) return;
  std::stable_sort(items.begin(), items.end(), [](auto& a, auto& b) { return a.first < b.first; });
  YAML::Node kept(YAML::NodeType::Sequence);
  kept.SetStyle(YAML::EmitterStyle::Flow);
  for (std::size_t i = 0; i < (items.size() + 1) / 2; ++i) kept.push_back(items[i].second);
  list = kept;
}

struct CopyRules {
  bool quick = false;
  unsigned seed_base = 0;
  fs::path base_dir;
  unsigned next_seed = 0;
};

void absolute_files(YAML::Node v, const fs::path& base) {
  auto fix = [&](YAML::Node s) {
    const fs::path p(s.Scalar());
    if (!p.is_absolute()) s = (base / p).lexically_normal().string();
  };
  if (v.IsScalar()) fix(v);
  if (v.IsSequence())
    for (auto item : v)
      if (item.IsScalar()) fix(item);
}

void rewrite(YAML::Node node, CopyRules& rules) {
  if (node.IsSequence()) {
    for (auto item : node) rewrite(item, rules);
    return;
  }
  if (!node.IsMap()) return;
  if (node["file"]) absolute_files(node["file"], rules.base_dir);
  if (rules.seed_base && node["generator"]) {
    const std::size_t count =
        node["seeds"] && node["seeds"].IsSequence() ? node["seeds"].size() : 1;
    YAML::Node seeds(YAML::NodeType::Sequence);
    seeds.SetStyle(YAML::EmitterStyle::Flow);
    for (std::size_t i = 0; i < count; ++i) seeds.push_back(rules.seed_base + rules.next_seed++);
    node["seeds"] = seeds;
  }
  if (rules.quick && node["params"] && node["params"].IsMap() && node["generator"])
    for (auto kv : node["params"])
      if (kv.second.IsSequence()) keep_smaller_half(kv.second);
  for (auto kv : node)
    if (kv.first.Scalar() != "claims") rewrite(kv.second, rules);
}

}  // namespace

std::string claim_paper(const Claim& c) {
  if (c.paper.size() >= 3 && std::isdigit(static_cast<unsigned char>(c.paper[0])) &&
      std::isdigit(static_cast<unsigned char>(c.paper[1])) &&
      std::isdigit(static_cast<unsigned char>(c.paper[2])))
    return c.paper.substr(0, 3);
  return "";
}

std::vector<ReproduceExperiment> reproduce_experiments(const fs::path& dir,
                                                       const std::vector<std::string>& papers,
                                                       const fs::path& reference_root) {
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<ReproduceExperiment> out;
  for (const fs::path& f : files) {
    ClaimsFile cf = read_claims_file(f.string());
    ReproduceExperiment e{f, cf.name, {}, std::move(cf.claims), {}};
    for (const Claim& c : e.claims) {
      const std::string p = claim_paper(c);
      if (p.empty() || std::find(e.papers.begin(), e.papers.end(), p) != e.papers.end()) continue;
      if (papers.empty() || std::find(papers.begin(), papers.end(), p) != papers.end())
        e.papers.push_back(p);
    }
    if (e.papers.empty()) continue;
    e.reference = reference_folder(reference_root, e.name);
    out.push_back(std::move(e));
  }
  return out;
}

fs::path write_reproduce_copy(const ReproduceExperiment& e, bool quick, unsigned seed_base,
                              const fs::path& out) {
  YAML::Node root;
  try {
    root = YAML::Load(read_whole_file(e.file));
  } catch (const YAML::Exception& x) {
    throw InputError(fmt::format("{}:{}: {}", e.file.string(), x.mark.line + 1, x.msg));
  }
  CopyRules rules{quick, seed_base, fs::absolute(e.file).parent_path()};
  rewrite(root, rules);
  // The claims stay in the experiment file: reproduce checks them on the results (a claim on
  // sizes this tier leaves out would stop `dpgpu run`'s check of the copy).
  if (root.IsMap()) root.remove("claims");
  YAML::Emitter em;
  em << root;
  const fs::path copy = out / "copies" / (e.name + ".yaml");
  fs::create_directories(copy.parent_path());
  write_file_atomically(
      copy, fmt::format("# {} for dpgpu reproduce: tier {}, seeds {}\n{}\n", e.file.string(),
                        quick ? "quick" : "full", seed_base ? "fresh" : "reference", em.c_str()));
  return copy;
}

}  // namespace dpgpu
