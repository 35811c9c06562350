// lcs_cell_kernel.cuh — cell mode, the paper's model (sections IV–V): one thread per cell of
// an anti-diagonal, one launch per anti-diagonal, only the last three diagonals on the GPU.
// The solver runs lcs_cell_value through the engine's generic step kernel (lcs_cell_adapter.cuh);
// lcs_cell_diagonal is the same recurrence as a kernel of its own for the CPU emulation test.
//
// Layout. Cell (i, j) (1-based; row 0 and column 0 are the zero boundary) lies on diagonal
// k = i + j and is stored at index i of that diagonal's buffer, so its three dependencies are
//   up   = H[i−1][j]   = D[k−1][i−1]
//   left = H[i][j−1]   = D[k−1][i]
//   diag = H[i−1][j−1] = D[k−2][i−1]
// and neighbouring threads read and write neighbouring words (coalesced). Three buffers
// rotate (D[k] reuses D[k−3]'s); each is zeroed once by the host and padded to whole blocks.
//
// Padding instead of branches (the paper's "pre-allocated memory addresses"): a launch covers
// the rows of the diagonal's interior cells rounded out to whole blocks, and every thread runs
// the same code, reads its dependencies and writes its slot. The surplus threads are harmless:
//   * rows are never below 1 (the launch starts at row ≥ 1), so slot 0 (the top boundary,
//     H[0][j] = 0) is never written;
//   * a thread with j ≤ 0 writes 0 (a select, not a branch): the left boundary H[i][0] = 0
//     at j = 0, and the same zero where j < 0 keeps every rotated buffer's slot i = k zero;
//   * a thread with j > m or i > n writes garbage into a cell right of or below the table;
//     such cells are read only by other such cells, never by a real one.
// The symbols are read through the read-only data cache (__ldg; the paper used texture
// memory, which is the same cache on current GPUs); `block` guard symbols on each side make
// the surplus threads' reads land in bounds. Template parameter P picks the read path
// (`readonly`: ldg, plain, or texture objects as the paper had them).
//
// kBits (reconstruct): every thread also decides H[i][j] > H[i−1][j] = d1[i − 1], and each
// warp stores its 32 decisions as one word (a ballot; the launch has no early exit, so the
// whole warp is there): word x / 32 of this diagonal's `bits` for thread x. Surplus threads'
// bits are garbage that the traceback never reads (lcs_traceback.hpp).
#pragma once
#if !defined(DPGPU_WAVEFRONT_CPU_EMULATION)  // test_lcs_kernels_on_cpu.cpp
#include <cuda_runtime.h>

#include "readonly.cuh"
#endif

#include <cstdint>

namespace dpgpu::wavefront {

// The recurrence of cell (i, j = k − i) on diagonal k, shared by the engine's generic step
// kernel (lcs_cell_adapter.cuh) and the stand-alone kernel below (run on the CPU by
// test_lcs_kernels_on_cpu.cpp). d2, d1: diagonals k − 2 and k − 1. `decision`: H[i][j] > H[i−1][j].
// a: a[i − 1] valid for i − 1 in [0, n + block − 1); b: b[j − 1] valid for j − 1 in
// [−block, m + block) (b.ptr is offset past the left guards; a texture over b is indexed with
// b_origin added, the guards' count).
template <ReadPath P = ReadPath::Ldg>
__device__ __forceinline__ int lcs_cell_value(const ReadOnly<std::uint8_t>& a,
                                              const ReadOnly<std::uint8_t>& b, int b_origin,
                                              const int* d2, const int* d1, int k, int i,
                                              bool& decision) {
  const int j = k - i;
  const int up = d1[i - 1];
  const int left = d1[i];
  const int diag = d2[i - 1];
  std::uint8_t sa, sb;
  if constexpr (P == ReadPath::Texture) {
    sa = fetch<P>(a, i - 1);
    sb = fetch<P>(b, b_origin + j - 1);
  } else {
    sa = fetch<P>(a, i - 1);
    sb = fetch<P>(b, j - 1);
  }
  const int v = sa == sb ? diag + 1 : max(up, left);
  const int out = j >= 1 ? v : 0;
  decision = out > up;
  return out;
}

// Diagonal k as one kernel; this launch's thread x handles row i = first_row + x.
template <ReadPath P = ReadPath::Ldg, bool kBits = false>
__global__ void lcs_cell_diagonal(ReadOnly<std::uint8_t> a, ReadOnly<std::uint8_t> b, int b_origin,
                                  const int* __restrict__ d2, const int* __restrict__ d1,
                                  int* __restrict__ d0, std::uint32_t* __restrict__ bits, int k,
                                  int first_row) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int i = first_row + x;
  bool decision = false;
  d0[i] = lcs_cell_value<P>(a, b, b_origin, d2, d1, k, i, decision);
  if constexpr (kBits) {
    const unsigned word = __ballot_sync(0xffffffffu, decision);
    if ((threadIdx.x & 31) == 0) bits[x >> 5] = word;
  }
}

}  // namespace dpgpu::wavefront
