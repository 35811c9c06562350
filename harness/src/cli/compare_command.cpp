// compare_command.cpp — `dpgpu compare BASE NEW`: case by case, by plots/dpgpu_compare.py;
// the options pass through to it.
#include "cli/command.hpp"
#include "report/plot_command.hpp"

namespace dpgpu::cli {

Command add_compare_command(CLI::App& app) {
  auto* compare = app.add_subcommand(
      "compare", "BASE NEW [--threshold 5%] [--out DIR]: case by case, exit 1 when slower");
  compare->prefix_command();
  return {compare,
          [compare] { return run_plots_script("dpgpu_compare.py", compare->remaining()); }};
}

}  // namespace dpgpu::cli
