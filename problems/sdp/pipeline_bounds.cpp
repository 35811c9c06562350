#include "sdp/pipeline_bounds.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace dpgpu::pipeline {

std::int64_t max_fold(const std::vector<std::int64_t>& offsets) {
  const auto k = std::int64_t(offsets.size());
  std::int64_t p = INT64_MAX;
  for (std::int64_t t = 0; t < k; ++t) p = std::min(p, offsets[std::size_t(t)] / (k - t));
  return k == 0 ? 0 : p;
}

std::string why_not_2x2(const std::vector<std::int64_t>& offsets) {
  const auto k = std::int64_t(offsets.size());
  const std::int64_t half = (k + 1) / 2;
  for (std::int64_t j = 0; j < k; ++j)
    if (offsets[std::size_t(j)] + j / 2 < half)
      return fmt::format(
          "the 2x2 pipeline needs a_j + floor(j/2) >= ceil(k/2) = {} for every j; a{} = {} gives "
          "{}",
          half, j, offsets[std::size_t(j)], offsets[std::size_t(j)] + j / 2);
  return {};
}

std::int64_t pipeline2x2_steps(std::int64_t n, std::int64_t a0, std::int64_t k) {
  return n <= a0 ? 0 : n - a0 + (k + 1) / 2 - 1;
}

std::int64_t pipeline_steps(std::int64_t n, std::int64_t a0, std::int64_t k, std::int64_t p) {
  if (n <= a0) return 0;
  return (n - a0 + p - 1) / p + k - 1;
}

std::int64_t paper_step_formula(std::int64_t n, std::int64_t a0, std::int64_t k, std::int64_t p) {
  // for i = a0 + (p - 1) to (n - 1) + (k - 1)p by p: the number of iterations.
  const std::int64_t first = a0 + p - 1, last = n - 1 + (k - 1) * p;
  return last < first ? 0 : (last - first) / p + 1;
}

}  // namespace dpgpu::pipeline
