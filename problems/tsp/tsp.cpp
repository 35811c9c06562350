// The certificate check, the work count, the sizes, and the problem's registration.
#include <fmt/format.h>

#include <cmath>

#include "dpgpu/registry.hpp"
#include "tsp/reference.hpp"
#include "tsp/tsp.hpp"

namespace tsp {

namespace {

// Why `tour` is not a permutation of 0..n-1, or "" when it is.
std::string why_not_permutation(int n, const std::vector<std::int32_t>& tour) {
  std::vector<std::int64_t> seen_at(static_cast<std::size_t>(n), -1);
  for (std::size_t k = 0; k < tour.size(); ++k) {
    const auto city = tour[k];
    if (city < 0 || city >= n)
      return fmt::format("city {} at position {} is out of range [0, {}]", city, k, n - 1);
    auto& first = seen_at[static_cast<std::size_t>(city)];
    if (first >= 0)
      return fmt::format("city {} is repeated at positions {} and {}", city, first, k);
    first = static_cast<std::int64_t>(k);
  }
  for (int city = 0; city < n; ++city)
    if (seen_at[static_cast<std::size_t>(city)] < 0)
      return fmt::format("city {} is missing (the tour has {} of {} cities)", city, tour.size(), n);
  return {};
}

}  // namespace

dpgpu::Verdict Problem::check(const Instance& x, const Solution& s) {
  if (x.n < 1 || x.dist.size() != std::size_t(x.n) * std::size_t(x.n))
    return dpgpu::Verdict::invalid(
        fmt::format("malformed instance: n = {} with {} matrix entries", x.n, x.dist.size()));
  if (auto why = why_not_permutation(x.n, s.tour); !why.empty())
    return dpgpu::Verdict::invalid(std::move(why));
  if (x.n == 1) return dpgpu::Verdict::valid(0);  // the only "arc" would be the diagonal
  std::int64_t total = 0;
  for (std::size_t k = 0; k < s.tour.size(); ++k) {
    const auto from = s.tour[k], to = s.tour[(k + 1) % s.tour.size()];
    if (__builtin_add_overflow(total, x.arc(from, to), &total))
      return dpgpu::Verdict::invalid(
          fmt::format("tour cost overflows int64 at arc {}->{}", from, to));
  }
  return dpgpu::Verdict::valid(total);
}

double Problem::work(const Instance& x) {
  const double m = x.n - 1;
  if (m < 1) return 0;
  return m * (m - 1) * std::ldexp(1.0, int(m) - 2) + 2 * m;
}

std::optional<std::int64_t> Problem::reference_optimum(const Instance& x) {
  if (x.n < 1 || x.n > kDefaultOptimumMaxN) return std::nullopt;
  return held_karp_optimum(x);
}

dpgpu::ValueMap Problem::dims(const Instance& x) { return {{"n", static_cast<std::int64_t>(x.n)}}; }

}  // namespace tsp

DPGPU_REGISTER_PROBLEM(tsp::Problem);
