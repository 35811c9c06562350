// case_summary.hpp — one case's summary.csv row. Its identity columns, worst status,
// validity and first message come from the case's runs.csv rows (after the agreement
// check, record_rows.hpp); every number from the typed repetitions: the time statistics
// (case_stats.hpp), the median work and its throughput, the harness overheads, the medians
// of phases and counters.
#pragma once
#include <vector>

#include "measure/case_stats.hpp"
#include "records/case_record.hpp"
#include "records/csv_table.hpp"

namespace dpgpu {

// The statistics of the counted repetitions' times as runs.csv holds them (record_rows.hpp:
// summary.csv is recomputable from runs.csv), with the case's noise threshold.
CaseStats recorded_time_stats(const CaseRecord& rec);

// `run_rows`: the case's rows of runs.csv (not empty).
CsvRow case_summary(const CaseRecord& rec, const std::vector<CsvRow>& run_rows);

// The case's work: the median over its counted repetitions of work_of(), else the
// instance's work when the solver names no work counter.
std::optional<double> median_work(const CaseRecord& rec);

}  // namespace dpgpu
