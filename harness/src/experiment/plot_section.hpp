// plot_section.hpp — the `plot:` section of an experiment file, checked when the file is read
// (figure kinds and their keys, from plots/plot_kinds.json, and the values' shapes), so that a
// typo is an error of `dpgpu check`, not of the plot script after the run. The columns a
// figure names are checked by the planner (plan.cpp), which knows every case's columns.
#pragma once
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "experiment/plot_figure.hpp"

namespace dpgpu {

// The figures of a `plot:` value (a list of figures, or one); InputError "FILE:LINE:COLUMN:
// plot[i]: ..." naming the key and the allowed keys or values.
std::vector<PlotFigure> read_plot_section(const YAML::Node& plot, const std::string& file);

}  // namespace dpgpu
