// stale_outputs.hpp — a results folder's derived files brought up to its journal before a
// reader (`dpgpu report`, `compare`, `plot`) reads them. A run killed by SIGKILL, SIGUSR1
// or a second signal has committed cases that runs.csv, summary.csv and benchmark.json may
// not show yet (they are rewritten after a case, not inside it).
#pragma once
#include <filesystem>

namespace dpgpu {

// Rebuilds every derived file from the journal when one of them is missing or older than
// it, unless a run holds the folder (that run rebuilds them itself). True if it rebuilt.
bool rebuild_if_stale(const std::filesystem::path& dir);

}  // namespace dpgpu
