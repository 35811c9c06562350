// pinned_experiment.hpp — a copy of an experiment file that runs the same from another
// folder. `dpgpu slurm` hands its array tasks this copy, so editing the original after
// submitting cannot give the shards different plans (their merge would refuse them).
#pragma once
#include <filesystem>
#include <string>

namespace dpgpu {

// The text of `file` for a copy that lives elsewhere: unchanged, except that relative
// instance file paths (relative to the file's own folder) become absolute; then the YAML
// is re-emitted (comments go) under a first line naming the original.
std::string pinned_experiment_text(const std::filesystem::path& file);

}  // namespace dpgpu
