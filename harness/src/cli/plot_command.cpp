// plot_command.cpp — `dpgpu plot RESULTS...`: figures drawn by the plots/ package, one or more
// folders in one command (`dpgpu plot results/reference/h100/*` redraws every committed figure)
// (report/plot_command.hpp starts it).
#include <memory>

#include "cli/command.hpp"
#include "dpgpu/error.hpp"
#include "report/plot_command.hpp"

namespace dpgpu::cli {

Command add_plot_command(CLI::App& app) {
  auto opt = std::make_shared<PlotOptions>();
  auto* plot = app.add_subcommand(
      "plot", "draw figures from one or more results folders (Python + Matplotlib)");
  plot->add_option("results", opt->results,
                   "results folders, each drawn in turn (required unless --list)");
  plot->add_option("--figure", opt->figure, "figure kind (default: all the experiment declares)");
  plot->add_option("--format", opt->format, "png, pdf or png,pdf");
  plot->add_option("--x", opt->x, "x column for every figure that has one (i.n, s.block, n)");
  plot->add_option("--series", opt->series,
                   "series columns for every figure that has series (solver or solver,s.block)");
  plot->add_flag("--adopt-unlisted", opt->adopt_unlisted,
                 "overwrite figures/ files that figures/.dpgpu-figures does not list (drawn before "
                 "that list existed), and list them");
  plot->add_flag("--list", opt->list, "list the figure kinds (and the folder's declared figures)");
  return {plot, [opt] {
            if (opt->results.empty() && !opt->list)
              throw InputError("plot: at least one RESULTS_DIR is required");
            return plot_results(*opt);
          }};
}

}  // namespace dpgpu::cli
