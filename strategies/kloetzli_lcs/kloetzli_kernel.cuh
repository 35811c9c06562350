// kloetzli_kernel.cuh — the two GPU levels of Kloetzli et al. (EGPGV 2008) for the LCS
// length. Level 1: the table is cut into tile × tile sub-problems; one launch computes a
// whole anti-diagonal of tiles, one block per tile, with the tiles' boundaries in global
// memory. Level 2: inside a block, thread i owns row i of the tile and the block sweeps the
// tile's 2·tile − 1 cell anti-diagonals in shared memory, one __syncthreads per diagonal.
#pragma once
#include <cstdint>

namespace dpgpu::kloetzli::kernel {

// Global boundaries between launches (0 before the first tile writes them):
//   row[j]  = D[last tile row computed above][j + 1]   (n entries)
//   col[i]  = D[i + 1][last tile column computed left] (m entries)
//   corner[(I) * (tiles_b + 1) + J] = D[I * tile][J * tile]  (bottom-right of tile (I-1, J-1))
// D is the usual (m+1) × (n+1) LCS table with D[0][*] = D[*][0] = 0.
__global__ void tile_diagonal(const std::uint8_t* __restrict__ a, int m,
                              const std::uint8_t* __restrict__ b, int n, int tile, int diagonal,
                              int first_I, int tiles_b, int* __restrict__ row,
                              int* __restrict__ col, int* __restrict__ corner) {
  extern __shared__ int smem[];
  int* top = smem;              // top[0] = corner, top[1 + j] = D[r0][c0 + j + 1]
  int* left = top + tile + 1;   // left[0] = corner, left[1 + i] = D[r0 + i + 1][c0]
  int* prev = left + tile + 1;  // two buffers of one cell diagonal, by step parity
  std::uint8_t* bs = reinterpret_cast<std::uint8_t*>(prev + 2 * tile);

  const int I = first_I + int(blockIdx.x), J = diagonal - I;
  const int r0 = I * tile, c0 = J * tile;
  const int rows = min(tile, m - r0), cols = min(tile, n - c0);
  const int i = int(threadIdx.x);
  const int corner_in = corner[I * (tiles_b + 1) + J];
  if (i == 0) top[0] = left[0] = corner_in;
  if (i < cols) top[1 + i] = row[c0 + i], bs[i] = b[c0 + i];
  if (i < rows) left[1 + i] = col[r0 + i];
  const std::uint8_t ai = i < rows ? a[r0 + i] : 0;
  __syncthreads();

  int mine = 0, prev_up = 0;
  for (int s = 0; s < rows + cols - 1; ++s) {
    const int j = s - i;
    if (i < rows && j >= 0 && j < cols) {
      const int up = i == 0 ? top[1 + j] : prev[((s - 1) & 1) * tile + i - 1];
      const int lf = j == 0 ? left[1 + i] : mine;
      // D[r0+i][c0+j]: from the boundaries on the first row/column, else what this thread
      // read as `up` one step ago (thread i-1's cell one column to the left).
      const int dg = i == 0 ? top[j] : j == 0 ? left[i] : prev_up;
      mine = ai == bs[j] ? dg + 1 : max(up, lf);
      prev_up = up;
      prev[(s & 1) * tile + i] = mine;
      if (j == cols - 1) col[r0 + i] = mine;
      if (i == rows - 1) row[c0 + j] = mine;
      if (i == rows - 1 && j == cols - 1) corner[(I + 1) * (tiles_b + 1) + J + 1] = mine;
    }
    __syncthreads();
  }
}

}  // namespace dpgpu::kloetzli::kernel
