#include "scale/pinned_experiment.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "dpgpu/text_file.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

// Makes one `file:` value (a path or a list of paths) absolute; true when it changed.
bool make_absolute(YAML::Node value, const fs::path& base_dir) {
  bool changed = false;
  auto fix = [&](YAML::Node path) {
    if (!path.IsScalar() || fs::path(path.Scalar()).is_absolute()) return;
    path = (base_dir / path.Scalar()).lexically_normal().string();
    changed = true;
  };
  if (value.IsSequence())
    for (YAML::Node item : value) fix(item);
  else
    fix(value);
  return changed;
}

bool pin_instances(YAML::Node part, const fs::path& base_dir) {
  bool changed = false;
  YAML::Node instances = part["instances"];
  if (!instances || !instances.IsSequence()) return false;
  for (YAML::Node source : instances)
    if (source.IsMap() && source["file"]) changed |= make_absolute(source["file"], base_dir);
  return changed;
}

}  // namespace

std::string pinned_experiment_text(const fs::path& file) {
  const std::string text = read_whole_file(file);
  YAML::Node root = YAML::Load(text);
  if (!root.IsMap()) return text;
  const fs::path base_dir = fs::absolute(file).parent_path();
  bool changed = pin_instances(root, base_dir);
  if (YAML::Node parts = root["parts"]; parts && parts.IsSequence())
    for (YAML::Node part : parts)
      if (part.IsMap()) changed |= pin_instances(part, base_dir);
  if (!changed) return text;
  YAML::Emitter out;
  out << root;
  return fmt::format(
      "# copy of {} with its instance files' paths made absolute (dpgpu slurm)\n{}\n",
      fs::absolute(file).lexically_normal().string(), out.c_str());
}

}  // namespace dpgpu
