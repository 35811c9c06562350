// The reference distance (two rows), script (whole table), and Hirschberg's linear-space script.
#include "edit/reference.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace edit {

namespace {

using Row = std::vector<std::int64_t>;

// row[j] = D(a, b[0..j)) for every j, over two rows.
Row last_row(std::string_view a, std::string_view b, dpgpu::Poller* poller) {
  Row row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = std::int64_t(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::int64_t diag = row[0];
    row[0] = std::int64_t(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::int64_t up = row[j];
      row[j] = std::min({up + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
    if (poller) poller->tick(b.size() + 1);
  }
  return row;
}

void append(Script& to, const Script& from) {
  to.ops += from.ops;
  to.symbols += from.symbols;
}

void hirschberg(std::string_view a, std::string_view b, dpgpu::Poller& poller,
                std::int64_t leaf_cells, Script& out) {
  if (a.size() <= 1 || b.empty() || std::int64_t(a.size()) * std::int64_t(b.size()) <= leaf_cells) {
    append(out, reference_script(a, b));
    return;
  }
  const std::size_t mid = a.size() / 2;
  const Row fwd = last_row(a.substr(0, mid), b, &poller);
  const std::string ra(a.substr(mid).rbegin(), a.substr(mid).rend());
  const std::string rb(b.rbegin(), b.rend());
  const Row bwd = last_row(ra, rb, &poller);  // bwd[k] = D(a[mid..), b[m-k..))
  std::size_t split = 0;
  for (std::size_t j = 1; j <= b.size(); ++j)
    if (fwd[j] + bwd[b.size() - j] < fwd[split] + bwd[b.size() - split]) split = j;
  hirschberg(a.substr(0, mid), b.substr(0, split), poller, leaf_cells, out);
  hirschberg(a.substr(mid), b.substr(split), poller, leaf_cells, out);
}

}  // namespace

std::int64_t reference_distance(std::string_view a, std::string_view b, const dpgpu::Poll& poll) {
  if (b.size() > a.size()) std::swap(a, b);  // the row runs over the shorter string
  dpgpu::Poller poller(poll);
  return last_row(a, b, &poller)[b.size()];
}

Script reference_script(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size(), w = m + 1;
  std::vector<std::int64_t> d((n + 1) * w);
  for (std::size_t j = 0; j <= m; ++j) d[j] = std::int64_t(j);
  for (std::size_t i = 1; i <= n; ++i) {
    d[i * w] = std::int64_t(i);
    for (std::size_t j = 1; j <= m; ++j)
      d[i * w + j] = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1,
                               d[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1])});
  }
  std::string ops;  // traced back from (n, m), reversed at the end
  std::size_t i = n, j = m;
  while (i > 0 || j > 0) {
    const std::int64_t here = d[i * w + j];
    if (i > 0 && j > 0 && here == d[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1])) {
      ops.push_back(a[i - 1] == b[j - 1] ? '=' : 'X');
      --i, --j;
    } else if (i > 0 && here == d[(i - 1) * w + j] + 1) {
      ops.push_back('D');
      --i;
    } else {
      ops.push_back('I');
      --j;
    }
  }
  std::reverse(ops.begin(), ops.end());
  return script_from_columns(std::move(ops), a, b);
}

Script hirschberg_script(std::string_view a, std::string_view b, const dpgpu::Poll& poll,
                         std::int64_t leaf_cells) {
  dpgpu::Poller poller(poll);
  Script out;
  hirschberg(a, b, poller, leaf_cells, out);
  return out;
}

}  // namespace edit
