// summary.hpp — the leading columns of runs.csv and summary.csv (their rows: record_rows.hpp
// and report/case_summary.hpp).
#pragma once
#include <vector>

#include "records/csv_table.hpp"

namespace dpgpu {

// The columns every runs.csv row starts with (DESIGN.md).
const std::vector<std::string>& run_columns();
// The columns every summary.csv row starts with.
const std::vector<std::string>& summary_columns();

}  // namespace dpgpu
