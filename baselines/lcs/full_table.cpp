// The whole score table, then a traceback from its corner.
#include <algorithm>
#include <cstdint>
#include <memory>

#include "lcs/lcs_cpu.hpp"
#include "recurrence.hpp"

namespace lcs::cpu {

namespace {

// Cells hold values up to min(n, m): the narrowest type that fits saves memory and bandwidth.
std::size_t cell_bytes(std::uint64_t n, std::uint64_t m) {
  const auto most = std::min(n, m);
  return most <= 0xff ? 1 : most <= 0xffff ? 2 : 4;
}

template <class Cell>
std::string fill_and_trace(std::string_view a, std::string_view b, const Poll& poll) {
  const std::size_t n = a.size(), m = b.size(), width = m + 1;
  // Not value-initialised: row 0 and column 0 are set below, the rest by the recurrence.
  std::unique_ptr<Cell[]> table(new Cell[(n + 1) * width]);
  std::fill_n(table.get(), width, Cell{0});
  Poller poller(poll);
  for (std::size_t i = 1; i <= n; ++i) {
    const Cell* up = table.get() + (i - 1) * width;
    Cell* row = table.get() + i * width;
    const char ai = a[i - 1];
    row[0] = 0;
    for (std::size_t j = 1; j <= m; ++j)
      row[j] = lcs_cell(up[j], row[j - 1], up[j - 1], ai == b[j - 1]);
    poller.tick(m + 1);
  }

  auto at = [&](std::size_t i, std::size_t j) { return table[i * width + j]; };
  std::string out(at(n, m), '\0');
  std::size_t i = n, j = m, k = out.size();
  while (k > 0) {
    if (a[i - 1] == b[j - 1]) {
      out[--k] = a[i - 1];
      --i, --j;
    } else if (at(i - 1, j) >= at(i, j - 1)) {
      --i;
    } else {
      --j;
    }
  }
  return out;
}

}  // namespace

std::uint64_t full_table_bytes(std::uint64_t n, std::uint64_t m) {
  return (n + 1) * (m + 1) * cell_bytes(n, m) + std::min(n, m);
}

std::string full_table(std::string_view a, std::string_view b, const Poll& poll) {
  switch (cell_bytes(a.size(), b.size())) {
    case 1: return fill_and_trace<std::uint8_t>(a, b, poll);
    case 2: return fill_and_trace<std::uint16_t>(a, b, poll);
    default: return fill_and_trace<std::uint32_t>(a, b, poll);
  }
}

}  // namespace lcs::cpu
