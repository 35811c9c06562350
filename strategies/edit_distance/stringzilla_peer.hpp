// stringzilla_peer.hpp — StringZilla's batched Levenshtein (stringzillas 5.x, Python only) as a
// peer of dpgpu's solvers, through stringzilla_worker.py: the strings go to a file, a Python
// worker builds them, warms the engine up, times the library call alone and writes the
// distances back. stringzillas 5.x computes every pair of two lists, so only the cross shape
// of edit_batch runs. The interpreter is $DPGPU_PYTHON, else python3.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "edit/batch.hpp"

namespace dpgpu::myers {

// Why the worker cannot run `backend` ("cuda" or "cpu") here, naming what to install, or ""
// (asked once per backend and remembered).
std::string stringzilla_unavailable(const std::string& backend);

struct PeerRun {
  std::vector<std::int32_t> distances;  // pair order (a-major)
  double library_s = 0;                 // the timed call, as the worker measured it
  double worker_s = 0;                  // the worker's whole run: start, strings, call, output
  std::string version;
};
// Throws std::runtime_error with the worker's message when it fails.
PeerRun run_stringzilla(const edit::BatchInstance& x, const std::string& backend);

}  // namespace dpgpu::myers
