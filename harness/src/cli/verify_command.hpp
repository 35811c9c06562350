// verify_command.hpp — `dpgpu verify RESULTS_DIR...`: each folder's claims evaluated on its
// committed records, one line per claim, then "N of M claims hold". Exit 0 when all hold,
// 1 when one fails, 2 on bad input (a folder, a CSV, a claim naming what the results lack).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace dpgpu {

struct VerifyOptions {
  std::vector<std::filesystem::path> dirs;
  std::filesystem::path experiment;  // claims from this file, not the folder's experiment
  bool markdown = false;             // a Markdown table per folder instead of lines
  bool json = false;                 // one JSON object on stdout (dpgpu report reads it)
  bool quiet_empty = false;          // say nothing of folders without claims
};

int verify_command(const VerifyOptions& options);

}  // namespace dpgpu
