// Hirschberg (1975): split a in half, find where an optimal path crosses that row from a
// forward and a backward score row, and recurse on the two halves. O(n·m) time, O(m) space.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lcs/lcs_cpu.hpp"
#include "recurrence.hpp"

namespace lcs::cpu {

namespace {

// Below this many cells a subproblem is solved with a full table (faster than recursing).
constexpr std::size_t kSmallCells = 1 << 14;

// row[j] = LCS(a, b[0..j)) for j = 0..|b|, or, when `backward`,
// row[j] = LCS(a, last j symbols of b) computed from the ends of both strings.
void score_row(std::string_view a, std::string_view b, bool backward, std::uint32_t* row,
               Poller& poller) {
  const std::size_t n = a.size(), m = b.size();
  std::fill_n(row, m + 1, 0u);
  for (std::size_t r = 0; r < n; ++r) {
    const char ai = backward ? a[n - 1 - r] : a[r];
    std::uint32_t diag = 0, left = 0;
    for (std::size_t j = 1; j <= m; ++j) {
      const char bj = backward ? b[m - j] : b[j - 1];
      const std::uint32_t up = row[j];
      left = lcs_cell(up, left, diag, ai == bj);
      row[j] = left;
      diag = up;
    }
    poller.tick(m + 1);
  }
}

struct Hirschberg {
  std::vector<std::uint32_t> forward, backward;  // scratch rows, |b| + 1 each
  Poller& poller;
  std::string out;

  void solve(std::string_view a, std::string_view b) {
    if (a.empty() || b.empty()) return;
    if (a.size() == 1) {
      if (b.find(a[0]) != std::string_view::npos) out.push_back(a[0]);
      return;
    }
    if ((a.size() + 1) * (b.size() + 1) <= kSmallCells) {
      out += full_table(a, b);
      poller.tick(a.size() * b.size());
      return;
    }
    const std::size_t mid = a.size() / 2, m = b.size();
    score_row(a.substr(0, mid), b, false, forward.data(), poller);
    score_row(a.substr(mid), b, true, backward.data(), poller);
    // Split b after `cut` symbols where the two halves together score most.
    std::size_t cut = 0;
    std::uint32_t best = 0;
    for (std::size_t j = 0; j <= m; ++j) {
      const std::uint32_t total = forward[j] + backward[m - j];
      if (total > best) best = total, cut = j;
    }
    solve(a.substr(0, mid), b.substr(0, cut));
    solve(a.substr(mid), b.substr(cut));
  }
};

}  // namespace

std::string hirschberg(std::string_view a, std::string_view b, const Poll& poll) {
  Poller poller(poll);
  Hirschberg h{std::vector<std::uint32_t>(b.size() + 1),
               std::vector<std::uint32_t>(b.size() + 1),
               poller,
               {}};
  h.solve(a, b);
  return std::move(h.out);
}

}  // namespace lcs::cpu
