// cpu.omp: the same O(n³) DP, diagonal by diagonal, entries of a diagonal over the cores.
#include <omp.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "mcm_cpu.hpp"

namespace mcm::cpu {

std::uint64_t omp_bytes(const Instance& x) {
  const auto w = std::uint64_t(x.n() + 1);
  return w * w * (sizeof(std::int64_t) + sizeof(std::int32_t));
}

Answer omp(const Instance& x, int threads, const Poll& poll) {
  require_split_bound(x, std::numeric_limits<std::int64_t>::max(), "cpu.omp", "2^63 - 1");
  const std::int64_t n = x.n(), w = n + 1;
  const std::int64_t* p = x.p.data();
  // sym[a·w + b] = M[a][b] for a < b, and sym[b·w + a] = M[a][b] too (the transposed copy).
  std::vector<std::int64_t> sym(std::size_t(w * w), 0);
  std::vector<std::int32_t> split(std::size_t(w * w), 0);
  std::int64_t* m = sym.data();
  const int team = threads > 0 ? threads : omp_get_max_threads();
  for (std::int64_t d = 2; d <= n; ++d) {
    if (poll) poll();
#pragma omp parallel for num_threads(team) schedule(dynamic, 16)
    for (std::int64_t a = 0; a <= n - d; ++a) {
      const std::int64_t b = a + d;
      const std::int64_t* row = m + a * w;  // M[a][c]
      const std::int64_t* col = m + b * w;  // M[c][b], stored at [b][c]
      const std::int64_t pab = p[a] * p[b];
      std::int64_t best = std::numeric_limits<std::int64_t>::max();
#pragma omp simd reduction(min : best)
      for (std::int64_t c = a + 1; c < b; ++c) best = std::min(best, row[c] + col[c] + pab * p[c]);
      std::int64_t c = a + 1;
      while (row[c] + col[c] + pab * p[c] != best) ++c;
      m[a * w + b] = best;
      m[b * w + a] = best;
      split[std::size_t(a * w + b)] = std::int32_t(c);
    }
  }
  Answer ans;
  ans.cost = n >= 2 ? m[n] : 0;
  ans.parenthesization = parenthesize(n, [&](std::int64_t lo, std::int64_t hi) {
    return std::int64_t(split[std::size_t(lo * w + hi)]);
  });
  return ans;
}

}  // namespace mcm::cpu
