// plot_figure.hpp — a `plot:` figure as the planner checks it (plot_section.hpp reads it).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "experiment/where.hpp"

namespace dpgpu {

// A column a `plot:` figure names (x, y, facets, an item of series, a key of filter), for the
// planner to check against the cases' columns.
struct PlotColumn {
  std::string key;   // "x", "series", "filter", ...
  std::string name;  // as written: "i.n", "block", "solver"
  Where where;
};

struct PlotFigure {
  std::string kind;       // runtime, throughput, ... (plots/plot_kinds.json)
  std::size_t index = 0;  // plot[index]
  Where where;
  std::vector<PlotColumn> columns;
};

}  // namespace dpgpu
