// optima_table.hpp — OPTIMA.tsv, the shared data's table of known optima
// (data/knapsack/README.md). The only source of an optimum for files that carry none
// (kplib), and a cross-check for those that do.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "knapsack/knapsack.hpp"

namespace knapsack {

// One row. Tab-separated, after a header line naming the columns; `file`, `instance`, `n`,
// `capacity` and `optimum` are required, others are ignored. `file` is relative to the table.
struct OptimumRow {
  std::filesystem::path file;
  std::string instance;
  std::int64_t n = 0, capacity = 0, optimum = 0;
  std::size_t line = 0;
};

// dpgpu::InputError "TABLE:LINE: ..." on a missing column or a bad number.
std::vector<OptimumRow> read_optima_table(const std::filesystem::path& table);

// OPTIMA.tsv in the data file's folder, else in the folder above it; nullopt if neither.
std::optional<std::filesystem::path> optima_table_for(const std::filesystem::path& data_file);

// Gives each instance loaded from `data_file` the optimum of its row in `table`: the one row
// for the file when the file holds one instance, else the row naming the instance. A row
// whose n or capacity differs from the instance, or whose optimum differs from the one the
// file states, is a dpgpu::InputError. Instances without a row are left as they are.
void apply_optima_table(const std::filesystem::path& table, const std::filesystem::path& data_file,
                        std::vector<dpgpu::Loaded<Instance>>& loaded);

}  // namespace knapsack
