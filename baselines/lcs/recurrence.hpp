// recurrence.hpp — one cell of the LCS score table, without a branch.
#pragma once
#include <algorithm>

namespace lcs::cpu {

// D[i][j] = max(D[i-1][j], D[i][j-1], D[i-1][j-1] + [a_i == b_j]). This equals the textbook
// "match ? diag + 1 : max(up, left)" because diag <= up and diag <= left always; written so,
// it compiles to conditional moves: matches are unpredictable and a branch costs ~4x.
// `left` is last so that the chain from cell to cell is one max.
template <class Cell>
inline Cell lcs_cell(Cell up, Cell left, Cell diag, bool match) {
  const Cell from_up = std::max(up, static_cast<Cell>(diag + match));
  return std::max(from_up, left);
}

}  // namespace lcs::cpu
