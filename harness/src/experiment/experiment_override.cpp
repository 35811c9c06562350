#include "experiment/experiment_override.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "dpgpu/error.hpp"

namespace dpgpu {

namespace {

std::vector<std::string> split_dots(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto dot = path.find('.', start);
    out.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

// A list item's name: a bare scalar, else its name, generator or file.
std::string item_name(const YAML::Node& item) {
  if (item.IsScalar()) return item.Scalar();
  if (item.IsMap())
    for (const char* key : {"name", "generator", "file"})
      if (item[key] && item[key].IsScalar()) return item[key].Scalar();
  return "";
}

YAML::Node parse_value(const Override& o) {
  try {
    return YAML::Load(o.value);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("--set {}={}: the value is not YAML: {}", o.path, o.value, e.msg));
  }
}

void apply(YAML::Node root, const Override& o, const std::string& file) {
  const auto parts = split_dots(o.path);
  YAML::Node node;
  node.reset(root);
  std::size_t i = 0;
  auto fail = [&](const std::string& why) {
    throw InputError(fmt::format("--set {}={}: {}: {}", o.path, o.value, file, why));
  };
  while (i < parts.size()) {
    if (node.IsSequence()) {
      // The longest run of parts that names an item: "gpu.wavefront" spans two.
      std::size_t best = 0;
      std::size_t index = 0;
      std::vector<std::string> names;
      for (std::size_t k = 0; k < node.size(); ++k) {
        std::string name = item_name(node[k]);
        names.push_back(name);
        std::string joined;
        for (std::size_t j = i; j < parts.size(); ++j) {
          joined += (j > i ? "." : "") + parts[j];
          if (joined == name && j + 1 - i > best) best = j + 1 - i, index = k;
        }
      }
      if (best == 0)
        fail(fmt::format("no item named '{}' in the list at '{}' (items: {})", parts[i],
                         fmt::join(parts.begin(), parts.begin() + long(i), "."), fmt::join(names, ", ")));
      i += best;
      if (node[index].IsScalar()) {  // a bare solver name: give it a map to hold the change
        YAML::Node item;
        item["name"] = node[index].Scalar();
        node[index] = item;
      }
      if (i == parts.size()) fail("names a list item; name one of its keys (e.g. params.NAME)");
      node.reset(node[index]);  // rebind: operator= would overwrite the node's value
      continue;
    }
    if (!node.IsMap() && !node.IsNull())
      fail(fmt::format("'{}' is a value, not a map", fmt::join(parts.begin(), parts.begin() + long(i), ".")));
    const std::string& key = parts[i];
    if (i + 1 == parts.size()) {
      node[key] = parse_value(o);
      return;
    }
    if (!node[key]) {
      if (i == 0) fail(fmt::format("the file has no top-level key '{}'", key));
      node[key] = YAML::Node(YAML::NodeType::Map);  // e.g. params: {} for a solver without one
    }
    node.reset(node[key]);
    ++i;
  }
}

}  // namespace

Override parse_override(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw InputError(fmt::format("--set '{}': expected PATH=VALUE, e.g. solvers.gpu.wavefront.params.tile_width=[256,512]",
                                 text));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string apply_overrides(const std::string& yaml_text, const std::vector<Override>& overrides,
                            const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: not YAML: {}", file, e.msg));
  }
  for (const auto& o : overrides) apply(root, o, file);
  std::ostringstream out;
  out << "# " << file << ", run with:\n";
  for (const auto& o : overrides) out << "#   --set " << o.path << "=" << o.value << "\n";
  YAML::Emitter emitter;
  emitter << root;
  out << emitter.c_str() << "\n";
  return out.str();
}

std::filesystem::path write_overridden(const std::filesystem::path& file, const std::vector<std::string>& sets) {
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot read", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  std::vector<Override> overrides;
  for (const auto& s : sets) overrides.push_back(parse_override(s));
  std::string changed = apply_overrides(text.str(), overrides, file.string());
  auto path = file.parent_path() / fmt::format(".{}.set-{}.yaml", file.stem().string(), getpid());
  std::ofstream out(path);
  if (!(out << changed)) throw InputError(fmt::format("{}: cannot write", path.string()));
  return path;
}

}  // namespace dpgpu
