// cpu.serial: the textbook DP exactly as the paper's Figure 3 writes it.
#include <limits>
#include <vector>

#include "mcm_cpu.hpp"

namespace mcm::cpu {

std::uint64_t serial_bytes(const Instance& x) {
  const auto n = std::uint64_t(x.n());
  return n * n * (sizeof(std::int64_t) + sizeof(std::int32_t));
}

Answer serial(const Instance& x, const Poll& poll) {
  require_split_bound(x, std::numeric_limits<std::int64_t>::max(), "cpu.serial", "2^63 - 1");
  const std::int64_t n = x.n();
  const auto& p = x.p;
  // m[i][j], s[i][j] for 1 <= i <= j <= n, stored 0-based at (i-1)·n + (j-1).
  std::vector<std::int64_t> m(std::size_t(n * n), 0);
  std::vector<std::int32_t> s(std::size_t(n * n), 0);
  auto at = [n](std::int64_t i, std::int64_t j) { return std::size_t((i - 1) * n + (j - 1)); };
  for (std::int64_t l = 2; l <= n; ++l) {
    if (poll) poll();
    for (std::int64_t i = 1; i <= n - l + 1; ++i) {
      const std::int64_t j = i + l - 1;
      std::int64_t best = std::numeric_limits<std::int64_t>::max();
      std::int32_t arg = 0;
      for (std::int64_t k = i; k <= j - 1; ++k) {
        const std::int64_t q = m[at(i, k)] + m[at(k + 1, j)] +
                               p[std::size_t(i - 1)] * p[std::size_t(k)] * p[std::size_t(j)];
        if (q < best) {
          best = q;
          arg = std::int32_t(k);
        }
      }
      m[at(i, j)] = best;
      s[at(i, j)] = arg;
    }
  }
  Answer a;
  a.cost = m[at(1, n)];
  // Interval [a, b) of points is m(a+1, b); its split k is the point c = k.
  a.parenthesization = parenthesize(
      n, [&](std::int64_t lo, std::int64_t hi) { return std::int64_t(s[at(lo + 1, hi)]); });
  return a;
}

}  // namespace mcm::cpu
