// lcs_tile.hpp — tile mode: a Kokkos team computes one TH × TW tile of the LCS table, one
// dispatch computes one anti-diagonal of tiles. The same source runs on every backend.
//
// Team thread t owns R consecutive rows (TH = P·R for a team of P threads) and keeps their
// values and row symbols in registers. The team sweeps the tile's columns as a skewed
// wavefront in strips of K columns: at step s thread t computes strip s − t (columns
// K(s − t) .. K(s − t) + K − 1) of its rows. What it needs from above, H of the row above its
// first row at those K columns, thread t − 1 produced one step earlier; it passes through a
// two-slot `edge` array in team scratch, with one team barrier per step (the hand-written
// gpu.wavefront passes one value per column with a warp shuffle, which Kokkos does not expose
// portably). K > 1 pays the barrier and the scratch round trip once per K columns, and lets
// the K × R cells of a step overlap (a cell waits on its left and upper neighbours only); it
// lengthens the skew to (P − 1)·K columns of a TW-column tile.
// Thread 0 reads its "above" from the tile's top boundary, which the team first copies into
// scratch with the column symbols (coalesced), so no step waits on global memory.
//
// Boundaries in global memory, O(n + m):
//   h_row[M]   H of the last finished tile row per column: top in, bottom out (in place);
//   v_col[N]   H of the last finished tile column per row: left in, right out;
//   corner[TR] H[i·TH − 1][j·TW − 1] for the next tile of tile row i.
// Tiles of one diagonal touch disjoint segments of all three.
#pragma once
#include <Kokkos_Core.hpp>

#include <cstdint>

// Unrolls the strip's column loop on the GPU, so that the K × R cells of a step are one
// block of code the compiler can interleave.
#if defined(__CUDA_ARCH__)
#define DPGPU_KOKKOS_UNROLL _Pragma("unroll")
#else
#define DPGPU_KOKKOS_UNROLL
#endif

namespace dpgpu::kokkos {

template <class Exec, int R, int K>
struct LcsTileDiagonal {
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Mem = typename Exec::memory_space;
  Kokkos::View<const std::uint16_t*, Mem> rows, cols;  // padded symbols
  Kokkos::View<int*, Mem> h_row, v_col, corner;
  int tile_width = 0;  // a multiple of K
  int diagonal = 0;    // tiles (i, diagonal − i) ...
  int first = 0;       // ... for i = first + league rank

  // Team scratch: top boundary and column symbols of the tile, and the edge exchange.
  static std::size_t scratch_bytes(int team, int tile_width) {
    return (2 * std::size_t(tile_width) + 2 * std::size_t(team) * K) * sizeof(int);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const int P = t.team_size(), lane = t.team_rank();
    const int ti = first + t.league_rank(), tj = diagonal - ti;
    const int row0 = (ti * P + lane) * R, col0 = tj * tile_width;
    int* const top = static_cast<int*>(t.team_scratch(0).get_shmem(sizeof(int) * tile_width));
    int* const csym = static_cast<int*>(t.team_scratch(0).get_shmem(sizeof(int) * tile_width));
    // edge[slot·K·P + j·P + lane]: column j of a strip, consecutive lanes in consecutive words.
    int* const edge = static_cast<int*>(t.team_scratch(0).get_shmem(sizeof(int) * 2 * K * P));

    for (int k = lane; k < tile_width; k += P) {
      top[k] = h_row(col0 + k);
      csym[k] = cols(col0 + k);
    }
    int sym[R], h[R];
    for (int r = 0; r < R; ++r) {
      sym[r] = rows(row0 + r);
      h[r] = v_col(row0 + r);
    }
    // H[row0 − 1][col0 − 1]: the corner for thread 0, else the left boundary of the row above
    // (read before its owner overwrites it, after the last barrier).
    int up_left = lane == 0 ? corner(ti) : v_col(row0 - 1);
    if (P > 1) t.team_barrier();

    const int strips = tile_width / K, steps = strips + P - 1;
    for (int s = 0; s < steps; ++s) {
      const int strip = s - lane;
      if (strip >= 0 && strip < strips) {
        const int col = strip * K;
        const int in = ((s - 1) & 1) * K * P + lane - 1, out = (s & 1) * K * P + lane;
        // All of the strip's loads first and all of its stores last: a store between two
        // columns would keep the compiler from moving the next column's loads above it (it
        // cannot prove they differ), so the columns would run one after the other.
        int above[K], c[K];
        DPGPU_KOKKOS_UNROLL
        for (int j = 0; j < K; ++j) {
          above[j] = lane == 0 ? top[col + j] : edge[in + j * P];
          c[j] = csym[col + j];
        }
        DPGPU_KOKKOS_UNROLL
        for (int j = 0; j < K; ++j) {
          int up = above[j];
          // max(up, left, up_left + match) is the textbook rule (neighbours differ by at most
          // 1), so the only dependency from row to row is one max.
          for (int r = 0; r < R; ++r) {
            const int left = h[r];
            const int v = Kokkos::max(up, Kokkos::max(left, up_left + (sym[r] == c[j] ? 1 : 0)));
            up_left = left;
            up = v;
            h[r] = v;
          }
          up_left = above[j];  // H[row0 − 1][col + j], the next column's up-left
          above[j] = up;       // now this thread's bottom value of column col + j
        }
        DPGPU_KOKKOS_UNROLL
        for (int j = 0; j < K; ++j) {
          edge[out + j * P] = above[j];
          if (lane == P - 1) top[col + j] = above[j];  // read by thread 0 (P − 1) steps ago
        }
      }
      if (P > 1) t.team_barrier();
    }

    for (int k = lane; k < tile_width; k += P) h_row(col0 + k) = top[k];
    for (int r = 0; r < R; ++r) v_col(row0 + r) = h[r];
    // Thread 0's last `above` was H[ti·TH − 1][col0 + TW − 1]: the next tile's corner.
    if (lane == 0) corner(ti) = up_left;
  }
};

}  // namespace dpgpu::kokkos
