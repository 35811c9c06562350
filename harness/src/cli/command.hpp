// command.hpp — one `dpgpu` subcommand per file in cli/: each add_*_command declares its
// options on the app and returns what runs it once the command line is parsed. main.cpp
// only dispatches (and maps exceptions to exit codes). A new subcommand: one file with its
// add_*_command, declared here and listed in main.cpp's table.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace dpgpu::cli {

// A whole number of at least 1, said in words (CLI::PositiveNumber's message prints a
// 300-digit bound).
const CLI::Validator& positive_whole_number();

struct Command {
  CLI::App* app = nullptr;   // the parsed subcommand (main runs the one the user named)
  std::function<int()> run;  // returns the process exit code; may throw (main maps it)
};

Command add_run_command(CLI::App& app);
Command add_check_command(CLI::App& app);
Command add_merge_command(CLI::App& app);
Command add_list_command(CLI::App& app);
Command add_plot_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_verify_command(CLI::App& app);
Command add_slurm_command(CLI::App& app);

}  // namespace dpgpu::cli
