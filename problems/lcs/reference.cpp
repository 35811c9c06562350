#include "lcs/reference.hpp"

#include <algorithm>
#include <vector>

namespace lcs {

std::int64_t reference_length(std::string_view a, std::string_view b) {
  // prev[j] = LCS(a[0..i), b[0..j)), cur = the same for i + 1.
  std::vector<std::int64_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j)
      cur[j + 1] = a[i] == b[j] ? prev[j] + 1 : std::max(prev[j + 1], cur[j]);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace lcs
