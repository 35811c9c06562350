// plot_command.hpp — `dpgpu plot`, `dpgpu report`, `dpgpu compare`: find a Python that has
// Matplotlib and run the matching script of plots/ (dpgpu_plot.py, dpgpu_report.py,
// dpgpu_compare.py), passing the options through; its exit status is the command's.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace dpgpu {

struct PlotOptions {
  std::vector<std::filesystem::path> results;  // one or more results folders, drawn in turn
  std::string figure;
  std::string format;
  std::string x;
  std::string series;  // columns making the series, comma-separated
  bool list = false;
  bool adopt_unlisted = false;  // overwrite (and list) figures/ files its list lacks
};

int plot_results(const PlotOptions& opt);

// Runs plots/<script> with `args` under the Python that plot_results uses.
int run_plots_script(const std::string& script, const std::vector<std::string>& args);

}  // namespace dpgpu
