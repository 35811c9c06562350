// summary.hpp — one summary row per case from its runs.csv rows: median, min, max, mean and
// relative noise of the time, throughput, phase and counter medians, harness overhead.
#pragma once
#include <vector>

#include "records/csv_table.hpp"

namespace dpgpu {

// The columns every runs.csv row starts with (DESIGN.md).
const std::vector<std::string>& run_columns();
// The columns every summary.csv row starts with.
const std::vector<std::string>& summary_columns();

std::vector<CsvRow> summarize(const std::vector<CsvRow>& runs);

}  // namespace dpgpu
