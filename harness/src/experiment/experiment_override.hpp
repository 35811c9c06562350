// experiment_override.hpp — `dpgpu run FILE --set PATH=VALUE`: sweep without editing the
// file. PATH walks the experiment's YAML: map keys by name, list items (solvers,
// instances, parts) by their `name`, `generator` or `file` (names may hold dots:
// `solvers.gpu.wavefront.params.tile_width`) or by their place (`parts.1.instances.0`);
// VALUE is YAML (`[256,512]`, `10`, `true`).
// NVBench's spelling `--axis` is the same option. The overrides change the parsed file in
// memory (nothing is written beside the experiment): an error in a value names the flag
// (`--set repetitions=0: ...`), the results folder's experiment.yaml holds the changed text
// (with a comment naming each override), and plan.json and the resume hint repeat the flags.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace dpgpu {

struct Override {
  std::string path;   // "solvers.gpu.wavefront.params.tile_width"
  std::string value;  // "[256,512]"
  std::string flag() const { return "--set " + path + "=" + value; }
};

// "PATH=VALUE" -> Override; InputError when there is no '=' or either side is empty.
Override parse_override(const std::string& text);
std::vector<Override> parse_overrides(const std::vector<std::string>& texts);

// Where an applied override's value sits among the marks of the tree: its nodes are read
// as if on lines first_line..last_line (0-based), past the file's last line, so a message
// about one of them can name the flag instead of a line of the file.
struct AppliedOverride {
  int first_line = 0, last_line = 0;
  std::string flag;  // "--set PATH=VALUE"
};

// Applies each override to `root` in order; `file_lines`: how many lines the file has.
// InputError naming the override and the part of its path that matches nothing (with what
// is there instead).
std::vector<AppliedOverride> apply_overrides(YAML::Node root,
                                             const std::vector<Override>& overrides,
                                             const std::string& file, int file_lines);

// The changed tree as YAML text, headed by a comment naming the file and each override.
std::string overridden_text(const YAML::Node& root, const std::vector<Override>& overrides,
                            const std::string& file);

// The experiment's YAML text with each override applied (both steps above).
std::string apply_overrides(const std::string& yaml_text, const std::vector<Override>& overrides,
                            const std::string& file);

}  // namespace dpgpu
