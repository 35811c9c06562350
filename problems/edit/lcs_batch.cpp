// lcs_batch: the check (a sample against the LCS reference); registered in batch.cpp.
#include "edit/lcs_batch.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lcs/reference.hpp"

namespace edit {

dpgpu::Verdict LcsBatchProblem::check(const Instance& x, const Solution& s) {
  if (s.distances.size() != x.pairs())
    return dpgpu::Verdict::invalid(
        fmt::format("{} lengths for {} pairs", s.distances.size(), x.pairs()));
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < s.distances.size(); ++k) {
    const auto most = std::min(x.a[x.a_of(k)].size(), x.b[x.b_of(k)].size());
    if (s.distances[k] < 0 || std::size_t(s.distances[k]) > most)
      return dpgpu::Verdict::invalid(
          fmt::format("pair {}: LCS length {} outside [0, {}]", k, s.distances[k], most));
    sum += s.distances[k];
  }
  for (const std::size_t k : sample_pairs(x)) {
    const auto want = lcs::reference_length(x.a[x.a_of(k)], x.b[x.b_of(k)]);
    if (want != s.distances[k])
      return dpgpu::Verdict::invalid(
          fmt::format("pair {} (a #{}, b #{}): LCS length {}, the reference says {}", k, x.a_of(k),
                      x.b_of(k), s.distances[k], want));
  }
  return dpgpu::Verdict::valid(sum);
}

}  // namespace edit
