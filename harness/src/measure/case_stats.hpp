// case_stats.hpp — the statistics of a case's counted repetitions (those that ran: ok or
// invalid), computed in one place from the typed records: the stopping rule of
// measure_case, the progress line, summary.csv and benchmark.json's aggregates all read a
// CaseStats (Google Benchmark's src/statistics.cc has the same shape: mean, median, stddev,
// cv over the repetitions). The plot scripts' report and compare read summary.csv's columns.
#pragma once
#include <vector>

#include "measure/noise.hpp"
#include "records/case_result.hpp"

namespace dpgpu {

struct CaseStats {
  int n = 0;  // counted repetitions
  // Of their times, in seconds times the scale asked for (0 when n is 0).
  double median = 0, min = 0, max = 0, mean = 0;
  double sd = 0;       // sample standard deviation (n - 1); 0 for fewer than two
  double rsd = 0;      // sd / mean; 0 when the mean is 0
  NoiseVerdict noise;  // noise.hpp's verdict on rsd and the spread
};

// A repetition that ran to an answer (right or wrong) and so has a time.
bool counted(const RepRecord& r);

// The median of some values (the mean of the middle two for an even count); 0 for none.
double median_of(std::vector<double> v);

// The statistics of some times; `noise_threshold` as noise.hpp's (<= 0: the default 5 %).
CaseStats case_stats(const std::vector<double>& times, double noise_threshold = 0);

// Of the counted repetitions' times; `scale` multiplies each time first (1e3: milliseconds,
// as benchmark.json has them).
CaseStats case_stats(const std::vector<RepRecord>& reps, double noise_threshold = 0,
                     double scale = 1);

}  // namespace dpgpu
