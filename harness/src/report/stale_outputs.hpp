// stale_outputs.hpp — a results folder's derived files brought up to its journal before a
// reader (`dpgpu report`, `compare`, `plot`) reads them. A run killed by SIGKILL, SIGUSR1
// or a second signal has committed cases that runs.csv, summary.csv and benchmark.json may
// not show yet (they are rewritten after a case, not inside it).
//
// Whether they are behind is decided from content (each case and repetition of the journal
// against runs.csv and summary.csv), never from file times: a copy, a clone or `touch`
// rewrites nothing. A damaged journal is set aside as `dpgpu run --resume` does
// (journal_repair.hpp): its readable records stay, the journal as it was is kept, and derived
// files holding a case it lacks are moved aside, never overwritten.
#pragma once
#include <filesystem>

namespace dpgpu {

// Rebuilds every derived file from the journal when they do not show it, unless a run holds
// the folder (that run rebuilds them itself). True if it rebuilt.
bool rebuild_if_stale(const std::filesystem::path& dir);

}  // namespace dpgpu
