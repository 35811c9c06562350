// myers_script.hpp — an optimal alignment in linear space over passes (Hirschberg 1975):
// every subproblem (a segment of x × a segment of y) of one level is two jobs of one batch,
// a forward pass over the top half of its rows and a reversed pass over the bottom half;
// their prefix distances give the split of x that minimises the sum. Subproblems of at most
// `leaf_cells` cells (or one row) are aligned on the host by the reference (OpenMP over
// leaves). Host C++; the runner is the GPU's or the CPU model.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "myers_pass.hpp"

namespace dpgpu::myers {

struct ScriptStats {
  int levels = 0;           // batches of passes
  std::int64_t leaves = 0;  // subproblems aligned on the host
  double pass_cells = 0;    // cells of all passes
  double leaf_cells = 0;    // cells of all leaves
};

// Alignment columns over '=', 'X', 'D', 'I' that turn x into y ('D': a symbol of x alone).
std::string align_columns(std::string_view x, std::string_view y, const Symbols& s,
                          PassRunner& runner, std::int64_t leaf_cells, ScriptStats* stats);

}  // namespace dpgpu::myers
