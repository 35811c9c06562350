// experiment_override.hpp — `dpgpu run FILE --set PATH=VALUE`: sweep without editing the
// file. PATH walks the experiment's YAML: map keys by name, list items (solvers,
// instances, parts) by their `name`, `generator` or `file` (names may hold dots:
// `solvers.gpu.wavefront.params.tile_width`); VALUE is YAML (`[256,512]`, `10`, `true`).
// NVBench's spelling `--axis` is the same option. The overridden text is what runs, so the
// results folder's experiment.yaml holds it (with a comment naming each override), and
// context.json's command line records the flags.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace dpgpu {

struct Override {
  std::string path;   // "solvers.gpu.wavefront.params.tile_width"
  std::string value;  // "[256,512]"
};

// "PATH=VALUE" -> Override; InputError when there is no '=' or either side is empty.
Override parse_override(const std::string& text);

// The experiment's YAML text with each override applied in order; InputError naming the
// override and the part of its path that matches nothing (with what is there instead).
std::string apply_overrides(const std::string& yaml_text, const std::vector<Override>& overrides,
                            const std::string& file);

// Writes FILE with the overrides applied beside FILE (so relative paths still resolve) as
// ".<stem>.set-<pid>.yaml" and returns its path; the caller removes it after the run.
std::filesystem::path write_overridden(const std::filesystem::path& file, const std::vector<std::string>& sets);

}  // namespace dpgpu
