// test_lcs_reference.hpp — the tests' oracle: a CPU two-row LCS, and the check of tile
// mode's final boundaries against it (shared by the GPU test and the CPU emulation test).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "lcs_geometry.hpp"
#include "lcs_wavefront.hpp"

namespace dpgpu::wavefront::test {

// The last row of the two-row reference: row[j] = LCS(x, first j symbols of y).
inline std::vector<int> last_row_of(const std::string& x, const std::string& y) {
  std::vector<int> prev(y.size() + 1, 0), cur(y.size() + 1, 0);
  for (std::size_t i = 1; i <= x.size(); ++i) {
    for (std::size_t j = 1; j <= y.size(); ++j)
      cur[j] = x[i - 1] == y[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    std::swap(prev, cur);
  }
  return prev;
}

// What a solve must produce: the length, and (for tile mode's boundaries) the LCS of each
// string against every prefix of the other.
struct Expected {
  std::int64_t length = 0;
  std::vector<int> a_vs_b_prefixes, b_vs_a_prefixes;
};
inline Expected reference(const std::string& a, const std::string& b) {
  Expected e;
  e.a_vs_b_prefixes = last_row_of(a, b);
  e.b_vs_a_prefixes = last_row_of(b, a);
  e.length = e.a_vs_b_prefixes.back();
  return e;
}
inline std::int64_t lcs_reference(const std::string& a, const std::string& b) {
  return last_row_of(a, b).back();
}

// Tile mode's final boundaries against the reference: the bottom row of every tile column
// and the right column of every tile row. Empty when all agree, else the first disagreement.
inline std::string check_boundaries(const LcsTileBoundaries& got, const Expected& e,
                                    const TileGeometry& g) {
  // last_row[j] = LCS(row string, first j + 1 column symbols); last_col[i] likewise.
  const auto& row_ref = got.rows_are_a ? e.a_vs_b_prefixes : e.b_vs_a_prefixes;
  const auto& col_ref = got.rows_are_a ? e.b_vs_a_prefixes : e.a_vs_b_prefixes;
  std::ostringstream os;
  if (got.rows_are_a == g.swapped) os << "rows_are_a disagrees with the geometry; ";
  if (got.last_row.size() != std::size_t(g.padded_cols) ||
      got.last_col.size() != std::size_t(g.padded_rows)) {
    os << "boundary sizes " << got.last_row.size() << ", " << got.last_col.size() << " instead of "
       << g.padded_cols << ", " << g.padded_rows;
    return os.str();
  }
  auto scan = [&](const std::vector<int>& v, const std::vector<int>& ref, const char* what,
                  int tile_extent, const char* tile_what) {
    std::size_t wrong = 0, first = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      const int want = ref[std::min(k + 1, ref.size() - 1)];
      if (v[k] != want && wrong++ == 0) first = k;
    }
    if (wrong) {
      const int want = ref[std::min(first + 1, ref.size() - 1)];
      os << wrong << " wrong values in the " << what << "; first at index " << first << " ("
         << tile_what << " " << first / std::size_t(tile_extent) << ", offset "
         << first % std::size_t(tile_extent) << "): " << v[first] << " instead of " << want << "; ";
    }
  };
  scan(got.last_row, row_ref, "bottom row H[N][*]", g.tile_width, "tile column");
  scan(got.last_col, col_ref, "right column H[*][M]", g.tile_height, "tile row");
  return os.str();
}

}  // namespace dpgpu::wavefront::test
