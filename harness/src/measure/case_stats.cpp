#include "measure/case_stats.hpp"

#include <algorithm>
#include <cmath>

namespace dpgpu {

bool counted(const RepRecord& r) { return r.status == Status::Ok || r.status == Status::Invalid; }

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

CaseStats case_stats(const std::vector<RepRecord>& reps, double noise_threshold, double scale) {
  std::vector<double> t;
  for (auto& r : reps)
    if (counted(r)) t.push_back(r.time_s * scale);
  return case_stats(t, noise_threshold);
}

CaseStats case_stats(const std::vector<double>& t, double noise_threshold) {
  CaseStats s;
  s.n = int(t.size());
  if (t.empty()) return s;
  for (double x : t) s.mean += x;
  s.mean /= double(t.size());
  double var = 0;
  for (double x : t) var += (x - s.mean) * (x - s.mean);
  s.sd = t.size() > 1 ? std::sqrt(var / double(t.size() - 1)) : 0;
  s.rsd = s.mean > 0 ? s.sd / s.mean : 0;
  s.median = median_of(t);
  s.min = *std::min_element(t.begin(), t.end());
  s.max = *std::max_element(t.begin(), t.end());
  s.noise = noise_verdict(s.rsd, s.min, s.max, s.median, s.n, noise_threshold);
  return s;
}

}  // namespace dpgpu
