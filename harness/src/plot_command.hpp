// plot_command.hpp — `dpgpu plot`: finds a Python that has Matplotlib and runs plots/dpgpu_plot.py.
#pragma once
#include <filesystem>
#include <string>

namespace dpgpu {

struct PlotOptions {
  std::filesystem::path results;
  std::string figure;
  std::string format;
};

int plot_results(const PlotOptions& opt);

}  // namespace dpgpu
