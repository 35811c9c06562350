// dpgpu — the command line: a dispatcher over the subcommands of cli/ (command.hpp), one
// file each: run, check, merge, list, plot, report, compare, verify, slurm, reproduce.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "device/clock_lock.hpp"
#include "device/host_info.hpp"
#include "dpgpu/error.hpp"
#include "records/csv_table.hpp"
#include "reproduce/reproduce_command.hpp"
#include "run/worker_main.hpp"

int main(int argc, char** argv) {
  // The child-process side of an isolated case; not a user command.
  if (argc >= 2 && std::string(argv[1]) == "__worker") return dpgpu::worker_main(argc, argv);
  // The guard that undoes locked clocks when the run that locked them dies (clock_lock.hpp).
  if (argc >= 2 && std::string(argv[1]) == "__clock-guard")
    return dpgpu::clock_guard_main(argc, argv);

  dpgpu::set_command_line(argc, argv);  // context.json records it
  CLI::App app{
      "dpgpu: GPU strategies for dynamic programming and backtracking against CPU baselines"};
  app.require_subcommand(1);
  namespace cli = dpgpu::cli;
  const std::vector<cli::Command> commands{
      cli::add_run_command(app),      cli::add_check_command(app),  cli::add_merge_command(app),
      cli::add_list_command(app),     cli::add_plot_command(app),   cli::add_report_command(app),
      cli::add_compare_command(app),  cli::add_verify_command(app), cli::add_slurm_command(app),
      cli::add_reproduce_command(app)};

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // Every command-line error is exit 2, as the README's table says (not CLI11's 104-114).
    std::cerr << "error: " << e.what()
              << "\n(dpgpu --help, or dpgpu COMMAND --help, lists the options)\n";
    return 2;
  }
  try {
    for (const cli::Command& c : commands)
      if (*c.app) return c.run();
  } catch (const dpgpu::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const dpgpu::WriteError& e) {  // a full disk, a folder moved away: not bad input
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
