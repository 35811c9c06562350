// SIMPLE-LCS leaves of the Chowdhury–Ramachandran recursion, and cpu.chowdhury itself.
#include "lcs/chowdhury.hpp"

#include "recurrence.hpp"

namespace lcs::chowdhury {

void base_boundary(std::string_view a, std::string_view b, const Region& r, Score* top, Score* left,
                   Score corner) {
  const char* bs = b.data() + r.j0;
  Score above_left = corner;  // D[i-1][j0]: the diagonal of the row's first cell
  for (std::size_t i = 0; i < r.h; ++i) {
    const char ai = a[r.i0 + i];
    Score diag = above_left, west = left[i];
    above_left = west;
    for (std::size_t j = 0; j < r.w; ++j) {
      const Score up = top[j];
      west = lcs::cpu::lcs_cell(up, west, diag, ai == bs[j]);
      top[j] = west;
      diag = up;
    }
    left[i] = west;
  }
}

namespace {
enum Step : std::uint8_t { kDiagonal, kUp, kLeft };
}

Point base_trace(std::string_view a, std::string_view b, const Region& r, const Score* top,
                 const Score* left, Score corner, std::vector<std::uint8_t>& table,
                 std::string& reversed) {
  const std::size_t h = r.h, w = r.w;
  table.resize(h * w);
  std::vector<Score> row(top, top + w);
  const char* bs = b.data() + r.j0;
  Score above_left = corner;
  for (std::size_t i = 0; i < h; ++i) {
    const char ai = a[r.i0 + i];
    Score diag = above_left, west = left[i];
    above_left = west;
    std::uint8_t* steps = table.data() + i * w;
    for (std::size_t j = 0; j < w; ++j) {
      const Score up = row[j];
      const bool match = ai == bs[j];
      steps[j] = match ? kDiagonal : (up >= west ? kUp : kLeft);
      west = lcs::cpu::lcs_cell(up, west, diag, match);
      row[j] = west;
      diag = up;
    }
  }
  // A match is always on an optimal path (D[i][j] = D[i-1][j-1] + 1 there).
  std::size_t i = h, j = w;
  while (i > 0 && j > 0) {
    switch (table[(i - 1) * w + (j - 1)]) {
      case kDiagonal:
        reversed.push_back(a[r.i0 + i - 1]);
        --i, --j;
        break;
      case kUp: --i; break;
      default: --j; break;
    }
  }
  return {r.i0 + i, r.j0 + j};
}

}  // namespace lcs::chowdhury

namespace lcs::cpu {

chowdhury::Result chowdhury(std::string_view a, std::string_view b, const chowdhury::Options& o,
                            const Poll& poll) {
  chowdhury::CpuOnly leaf;
  return chowdhury::solve(a, b, o, leaf, poll);
}

}  // namespace lcs::cpu
