// summary.hpp — the leading columns of runs.csv and summary.csv (their rows: record_rows.hpp
// and report/case_summary.hpp).
#pragma once
#include <string>
#include <vector>

#include "records/csv_table.hpp"

namespace dpgpu {

// The columns every runs.csv row starts with (DESIGN.md).
const std::vector<std::string>& run_columns();
// The columns every summary.csv row starts with.
const std::vector<std::string>& summary_columns();

// A summary.csv statistic of some values: exact when every value is a whole number (a node
// count, a counter that counts: its median in full, 1490911664 and not 1.49091e+09; a .5 for
// the median of an even count), else 6 significant digits.
std::string summary_number(double statistic, const std::vector<double>& values);

}  // namespace dpgpu
