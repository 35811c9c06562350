// level_kernels.cuh — GPU levels 1-3 of the hierarchical LCS (paper 003, section 5).
//
// A subproblem (an h x w region of the score table with its top row and left column given)
// is cut into G x G blocks (G = `grid`). Level 1: one launch per anti-diagonal of blocks;
// only block boundaries live in global memory, in a frontier of one slot per block column
// (the bottom row of its latest block) and one per block row (the right column): blocks of
// one diagonal touch distinct slots, so each reads and rewrites its two slots in place. Each
// slot holds G + 1 scores, its first the corner shared with the neighbouring block (the
// paper's "two copies of the corner"). Level 2: one CUDA block per level-1 block, its
// boundaries and symbols in shared memory, thread t owning the column strip of sub-blocks
// t; sub-block (r, t) is computed at step r + t, a barrier between steps (the diagonal
// sweep). Level 3: a thread's SUB x SUB sub-block serially, in registers; the right column
// goes to thread t + 1 through a double-buffered shared exchange.
//
// Padding: rows beyond h and columns beyond w get symbols that match nothing and boundary
// values that repeat the last real ones. Scores are monotone along rows and columns, so the
// padded cells repeat the real bottom row and right column: the real outputs are unchanged.
#pragma once
#include <cstdint>

namespace dpgpu::hierarchical {

using Score = std::uint32_t;

struct Subproblem {
  const std::uint8_t* a;     // the region's row symbols (a + i0 on the device)
  const std::uint8_t* b;     // its column symbols
  std::uint32_t h, w;        // real sides
  std::uint32_t rows, cols;  // blocks per side
  Score* bottom;             // cols slots of grid + 1: [corner, bottom row of the block column]
  Score* right;              // rows slots of grid + 1: [corner, right column of the block row]
};

// Fills the frontier from the input boundary (top: w values, left: h values, both without
// the corner, which is passed apart), repeating the last real value into the padding.
static __global__ void scatter_inputs(Subproblem s, int grid, const Score* top, const Score* left,
                                      Score corner) {
  const std::uint32_t slot = grid + 1;
  const std::uint64_t n_top = std::uint64_t(s.cols) * slot, n_left = std::uint64_t(s.rows) * slot;
  for (std::uint64_t k = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; k < n_top + n_left;
       k += std::uint64_t(gridDim.x) * blockDim.x) {
    const bool is_top = k < n_top;
    const std::uint64_t kk = is_top ? k : k - n_top;
    const std::uint64_t pos = (kk / slot) * grid + kk % slot;  // D index along the edge, 0 = corner
    const std::uint32_t len = is_top ? s.w : s.h;
    const Score* edge = is_top ? top : left;
    const Score v = pos == 0 ? corner : edge[(pos <= len ? pos : len) - 1];
    (is_top ? s.bottom : s.right)[kk] = v;
  }
}

// Reads the real output boundary back out of the frontier (w then h values, no corner).
static __global__ void gather_outputs(Subproblem s, int grid, Score* top, Score* left) {
  const std::uint32_t slot = grid + 1;
  for (std::uint64_t k = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
       k < std::uint64_t(s.w) + s.h; k += std::uint64_t(gridDim.x) * blockDim.x) {
    const bool is_top = k < s.w;
    const std::uint64_t pos = is_top ? k : k - s.w;  // 0-based index past the corner
    const Score* frontier = is_top ? s.bottom : s.right;
    const Score v = frontier[(pos / grid) * slot + 1 + pos % grid];
    (is_top ? top : left)[pos] = v;
  }
}

// SUB consecutive 32-bit words of shared memory, 16 bytes at a time where SUB allows (the
// address is then 16-byte aligned): fewer bank conflicts for strided threads.
template <int SUB, class T>
__device__ __forceinline__ void load_sub(T (&v)[SUB], const T* p) {
  if constexpr (SUB % 4 == 0) {
#pragma unroll
    for (int q = 0; q < SUB; q += 4) {
      const uint4 x = *reinterpret_cast<const uint4*>(p + q);
      v[q] = T(x.x), v[q + 1] = T(x.y), v[q + 2] = T(x.z), v[q + 3] = T(x.w);
    }
  } else {
#pragma unroll
    for (int q = 0; q < SUB; ++q) v[q] = p[q];
  }
}
template <int SUB, class T>
__device__ __forceinline__ void store_sub(T* p, const T (&v)[SUB]) {
  if constexpr (SUB % 4 == 0) {
#pragma unroll
    for (int q = 0; q < SUB; q += 4)
      *reinterpret_cast<uint4*>(p + q) =
          make_uint4(unsigned(v[q]), unsigned(v[q + 1]), unsigned(v[q + 2]), unsigned(v[q + 3]));
  } else {
#pragma unroll
    for (int q = 0; q < SUB; ++q) p[q] = v[q];
  }
}

// One anti-diagonal `d` of level-1 blocks; blockDim.x = grid / SUB threads.
template <int SUB>
__global__ void __launch_bounds__(1024) diagonal_blocks(Subproblem s, int grid, std::uint32_t d) {
  extern __shared__ Score smem[];
  const int k = blockDim.x, t = threadIdx.x;
  const std::uint32_t slot = grid + 1;
  Score* exchange = smem;                                  // 2 x grid: right columns handed on
  int* a_s = reinterpret_cast<int*>(exchange + 2 * grid);  // grid row symbols
  Score* top_s = exchange + 3 * grid;                      // grid + 1: corner, top row
  Score* left_s = top_s + slot;                            // grid + 1: corner, left column

  const std::uint32_t first_row = d >= s.cols ? d - s.cols + 1 : 0;
  const std::uint32_t bi = first_row + blockIdx.x, bj = d - bi;
  Score* bottom_slot = s.bottom + std::uint64_t(bj) * slot;
  Score* right_slot = s.right + std::uint64_t(bi) * slot;
  const std::uint32_t row0 = bi * grid, col0 = bj * grid;

  for (int q = t; q < int(slot); q += k) {
    top_s[q] = bottom_slot[q];
    left_s[q] = right_slot[q];
  }
  for (int q = t; q < grid; q += k) a_s[q] = row0 + q < s.h ? int(s.a[row0 + q]) : -1;
  int b_r[SUB];
  Score col[SUB];  // the row above this thread's next sub-block, then its bottom row
#pragma unroll
  for (int c = 0; c < SUB; ++c) {
    const std::uint32_t j = col0 + t * SUB + c;
    b_r[c] = j < s.w ? int(s.b[j]) : -2;
  }
  __syncthreads();
#pragma unroll
  for (int c = 0; c < SUB; ++c) col[c] = top_s[1 + t * SUB + c];
  Score corner = top_s[t * SUB];  // D above-left of the next sub-block

  const int sub_rows = grid / SUB;
  for (int step = 0; step < sub_rows + k - 1; ++step) {
    const int r = step - t;
    if (r >= 0 && r < sub_rows) {
      Score west[SUB];
      if (t == 0) {
#pragma unroll
        for (int q = 0; q < SUB; ++q) west[q] = left_s[1 + r * SUB + q];
      } else {
        load_sub<SUB>(west, exchange + ((step - 1) & 1) * grid + (t - 1) * SUB);
      }
      int a_r[SUB];
      load_sub<SUB>(a_r, a_s + r * SUB);
      Score diag = corner;
      corner = west[SUB - 1];
#pragma unroll
      for (int q = 0; q < SUB; ++q) {
        const int ai = a_r[q];
        Score w = west[q];
        const Score next_diag = w;
#pragma unroll
        for (int c = 0; c < SUB; ++c) {
          const Score up = col[c];
          w = max(max(up, diag + Score(ai == b_r[c])), w);
          col[c] = w;
          diag = up;
        }
        west[q] = w;
        diag = next_diag;
      }
      store_sub<SUB>(exchange + (step & 1) * grid + t * SUB, west);
      if (t == k - 1) {
#pragma unroll
        for (int q = 0; q < SUB; ++q) right_slot[1 + r * SUB + q] = west[q];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int c = 0; c < SUB; ++c) bottom_slot[1 + t * SUB + c] = col[c];
  if (t == 0) {
    bottom_slot[0] = left_s[grid];  // D[row0 + grid][col0]: the next block's corner
    right_slot[0] = top_s[grid];    // D[row0][col0 + grid]
  }
}

}  // namespace dpgpu::hierarchical
