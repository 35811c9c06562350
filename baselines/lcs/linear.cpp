// The score recurrence over one row (plus the diagonal in a register): length only.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lcs/lcs_cpu.hpp"
#include "recurrence.hpp"

namespace lcs::cpu {

std::int64_t linear(std::string_view a, std::string_view b, const Poll& poll) {
  if (b.size() > a.size()) std::swap(a, b);  // the row runs over the shorter string
  const std::size_t m = b.size();
  std::vector<std::uint32_t> row(m + 1, 0);  // row[j] = LCS(a[0..i), b[0..j))
  Poller poller(poll);
  for (const char ai : a) {
    std::uint32_t diag = 0, left = 0;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::uint32_t up = row[j];
      left = lcs_cell(up, left, diag, ai == b[j - 1]);
      row[j] = left;
      diag = up;
    }
    poller.tick(m + 1);
  }
  return row[m];
}

}  // namespace lcs::cpu
