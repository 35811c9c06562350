// edit_batch: the check (a sample against the reference), the sizes, and the registration
// of both batch problems.
#include "edit/batch.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "dpgpu/registry.hpp"
#include "edit/lcs_batch.hpp"
#include "edit/reference.hpp"

namespace edit {

std::vector<std::size_t> sample_pairs(const BatchInstance& x) {
  const std::size_t n = x.pairs(), want = std::min<std::size_t>(n, 64);
  std::vector<std::size_t> out;
  double cells = 0;
  for (std::size_t t = 0; t < want; ++t) {
    const std::size_t k = want == 1 ? 0 : t * (n - 1) / (want - 1);
    cells += double(x.a[x.a_of(k)].size()) * double(x.b[x.b_of(k)].size());
    if (!out.empty() && cells > 2e8) break;
    out.push_back(k);
  }
  return out;
}

std::uint64_t batch_checksum(const std::vector<std::int32_t>& distances) {
  std::uint64_t h = 1469598103934665603ull;
  for (const std::int32_t d : distances)
    for (int byte = 0; byte < 4; ++byte) {
      h ^= (std::uint32_t(d) >> (8 * byte)) & 0xffu;
      h *= 1099511628211ull;
    }
  return h;
}

dpgpu::Verdict BatchProblem::check(const Instance& x, const Solution& s) {
  if (s.distances.size() != x.pairs())
    return dpgpu::Verdict::invalid(
        fmt::format("{} distances for {} pairs", s.distances.size(), x.pairs()));
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < s.distances.size(); ++k) {
    if (s.distances[k] < 0)
      return dpgpu::Verdict::invalid(fmt::format("pair {}: distance {} < 0", k, s.distances[k]));
    sum += s.distances[k];
  }
  for (const std::size_t k : sample_pairs(x)) {
    const auto want = reference_distance(x.a[x.a_of(k)], x.b[x.b_of(k)]);
    if (want != s.distances[k])
      return dpgpu::Verdict::invalid(
          fmt::format("pair {} (a #{}, b #{}): distance {}, the reference says {}", k, x.a_of(k),
                      x.b_of(k), s.distances[k], want));
  }
  return dpgpu::Verdict::valid(sum);
}

double BatchProblem::work(const Instance& x) {
  if (x.cross) return double(x.a.text.size()) * double(x.b.text.size());
  double cells = 0;
  for (std::size_t k = 0; k < x.a.size(); ++k)
    cells += double(x.a[k].size()) * double(x.b[k].size());
  return cells;
}

dpgpu::ValueMap BatchProblem::dims(const Instance& x) {
  auto longest = [](const Strings& s) {
    std::int64_t m = 0;
    for (std::size_t i = 0; i < s.size(); ++i) m = std::max(m, s.offset[i + 1] - s.offset[i]);
    return m;
  };
  return {{"pairs", std::int64_t(x.pairs())}, {"n", longest(x.a)}, {"m", longest(x.b)}};
}

}  // namespace edit

// Both batch problems here: lcs_batch shares this file's instance, and a program that links
// either gets both (a registration alone in its own object would be left out of the link).
DPGPU_REGISTER_PROBLEM(edit::BatchProblem);
DPGPU_REGISTER_PROBLEM(edit::LcsBatchProblem);
