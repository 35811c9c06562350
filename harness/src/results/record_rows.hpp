// record_rows.hpp — committed case records formatted as runs.csv rows (one per counted
// repetition, plus one that says why a case stopped), after the cross-solver agreement
// check: solvers of one instance that disagree make every row of that instance invalid.
// The CSV, summary and benchmark reporters all start from these rows or statuses.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "records/case_record.hpp"
#include "records/csv_table.hpp"

namespace dpgpu {

using Records = std::vector<const CaseRecord*>;  // in plan order

// The instance a case belongs to, for the agreement check (problem and instance key).
std::string instance_group(const CaseSpec& c);

// Why each disagreeing instance is invalid, by instance_group ("solvers disagree on ...").
std::map<std::string, std::string> disagreements(const Records& records);

// A case's energy columns (energy_j per solve, power_w, work_per_joule from `work`, the
// method, the window) and its sampled GPU clock range and throttle flags.
void add_energy_columns(CsvRow& row, const EnergyRecord& e, std::optional<double> work);

// runs.csv's significant digits for times (solve, phase) and for harness seconds. summary.csv's
// statistics are computed over the values as runs.csv holds them (as_recorded), so anyone can
// recompute summary.csv from runs.csv exactly.
inline constexpr int kTimeDigits = 9, kHarnessDigits = 6;
std::string recorded_text(double x, int digits);  // x with `digits` significant digits
double as_recorded(double x, int digits);         // the number that text stands for

// The runs.csv rows of every record.
std::vector<CsvRow> run_rows(const Records& records);
// The same rows, one list per record (in the order of `records`).
std::vector<std::vector<CsvRow>> run_rows_by_case(const Records& records);

// The case's status after the agreement check (what summary.csv says).
Status effective_status(const CaseRecord& r, const std::map<std::string, std::string>& disagree);

}  // namespace dpgpu
