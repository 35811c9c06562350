// OpenMP wavefront over tiles: tile (ti, tj) needs the tiles above and to the left, so all
// tiles of one anti-diagonal ti + tj = d run in parallel, diagonal after diagonal.
//
// Boundaries between tiles live in two arrays, written so that tiles of one diagonal never
// touch the same element:
//   bottom[j]          (j = 1..m): the last row of the latest tile in column j's tile column;
//   right[ti][0..h]    one per tile row: the column just left of the next tile in that row,
//                      from its top-left corner (row i0) down to row i0 + h.
// A tile reads its top edge from `bottom`, its left edge and corner from `right[ti]`, then
// overwrites both with its own bottom row and right column (corner = its top-right value).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <vector>

#include "lcs/lcs_cpu.hpp"
#include "recurrence.hpp"

namespace lcs::cpu {

namespace {

using Cell = std::uint32_t;

struct Tiling {
  std::string_view a, b;
  std::size_t tile, rows, cols;  // tile side, and tiles down a and across b
  std::vector<Cell> bottom;      // m + 1
  std::vector<Cell> right;       // rows × (tile + 1)

  Tiling(std::string_view a_, std::string_view b_, std::size_t tile_)
      : a(a_),
        b(b_),
        tile(tile_),
        rows((a_.size() + tile_ - 1) / tile_),
        cols((b_.size() + tile_ - 1) / tile_),
        bottom(b_.size() + 1, 0),
        right(rows * (tile_ + 1), 0) {}

  // `top` is scratch of tile + 1 cells owned by the calling thread.
  void compute(std::size_t ti, std::size_t tj, Cell* top) {
    const std::size_t i0 = ti * tile, j0 = tj * tile;
    const std::size_t h = std::min(tile, a.size() - i0), w = std::min(tile, b.size() - j0);
    Cell* edge = &right[ti * (tile + 1)];
    top[0] = edge[0];  // corner D[i0][j0]
    std::copy_n(&bottom[j0 + 1], w, top + 1);
    const Cell top_right = top[w];
    for (std::size_t k = 1; k <= h; ++k) {
      const char ai = a[i0 + k - 1];
      Cell diag = top[0], left = edge[k];
      top[0] = left;
      for (std::size_t c = 1; c <= w; ++c) {
        const Cell up = top[c];
        left = lcs_cell(up, left, diag, ai == b[j0 + c - 1]);
        top[c] = left;
        diag = up;
      }
      edge[k] = left;  // D[i0 + k][j0 + w], the next tile's left edge
    }
    edge[0] = top_right;  // D[i0][j0 + w], the next tile's corner
    std::copy_n(top + 1, w, &bottom[j0 + 1]);
  }
};

}  // namespace

std::int64_t omp_wavefront(std::string_view a, std::string_view b, int threads, int tile,
                           const Poll& poll) {
  if (a.empty() || b.empty()) return 0;
  const std::size_t side = static_cast<std::size_t>(std::max(tile, 1));
  Tiling t(a, b, side);
  const std::size_t diagonals = t.rows + t.cols - 1;
  // No diagonal has more than min(rows, cols) tiles: more threads would only wait.
  const int team = static_cast<int>(std::min<std::size_t>(
      threads > 0 ? threads : omp_get_max_threads(), std::min(t.rows, t.cols)));

  // Exceptions may not leave a parallel region: the master thread polls at the start of a
  // diagonal and, if the poll throws, keeps the exception and marks that diagonal; after
  // the diagonal's barrier every thread sees the mark and leaves; it is rethrown outside.
  // (A mark is a diagonal number, so a mark set for the next diagonal before a slow thread
  // reads this one's cannot make threads disagree; one barrier per diagonal.)
  std::exception_ptr stopped;
  std::atomic<std::size_t> stop_at{diagonals};
#pragma omp parallel num_threads(team)
  {
    std::vector<Cell> top(side + 1);
    for (std::size_t d = 0; d < diagonals; ++d) {
#pragma omp master
      {
        try {
          if (poll) poll();
        } catch (...) {
          stopped = std::current_exception();
          stop_at = d;
        }
      }
      const std::size_t first = d >= t.cols ? d - t.cols + 1 : 0;  // tile row
      const std::size_t last = std::min(d, t.rows - 1);
#pragma omp for schedule(static, 1)
      for (std::size_t ti = first; ti <= last; ++ti)
        if (stop_at.load(std::memory_order_relaxed) != d) t.compute(ti, d - ti, top.data());
      if (stop_at.load() <= d) break;  // after the barrier closing `omp for`
    }
  }
  if (stopped) std::rethrow_exception(stopped);
  return t.bottom[b.size()];
}

}  // namespace lcs::cpu
