// report_command.cpp — `dpgpu report RESULTS_DIR`: report.html and report.md, written by
// plots/dpgpu_report.py; the options pass through to it.
#include <cstdlib>
#include <filesystem>

#include "cli/command.hpp"
#include "report/plot_command.hpp"

namespace dpgpu::cli {

Command add_report_command(CLI::App& app) {
  auto* report = app.add_subcommand(
      "report",
      "RESULTS_DIR [--no-plot] [--adopt-unlisted]: write report.html and report.md there");
  report->prefix_command();
  return {report, [report] {
            // The report asks this binary for the folder's claims (dpgpu verify --json).
            std::error_code ec;
            const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
            if (!ec) setenv("DPGPU_BIN", self.c_str(), 1);
            return run_plots_script("dpgpu_report.py", report->remaining());
          }};
}

}  // namespace dpgpu::cli
