// split_walk.hpp — the splits of the optimal parenthesization in preorder (root first, then
// the left subtree, then the right), walked from a solver's split table: what
// mcm::parenthesize_preorder reads. Header-only and callable from device code (CUDA kernels,
// Kokkos functors), so a GPU solver walks the tree where its table lives and copies n − 1
// values back, not the table (gpu.mcm, gpu.mcm_tiled, kokkos.mcm).
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define MCM_HOST_DEVICE __host__ __device__
#else
#define MCM_HOST_DEVICE
#endif

namespace mcm {

// split_of(a, b): the split c of the interval [a, b) (called for b − a >= 2). Writes the
// n − 1 splits to out[0..n−2]; stack holds n + 2 intervals packed as a·2^32 + b.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // split_of may be device-only; instantiated where it is callable
#endif
template <class SplitOf, class Out, class Int64>
MCM_HOST_DEVICE void walk_splits_preorder(const SplitOf& split_of, Int64 n, Out* out,
                                          Int64* stack) {
  static_assert(sizeof(Int64) == 8, "intervals are packed into 64 bits");
  Int64 top = 0, k = 0;
  stack[top++] = n;  // [0, n)
  while (top > 0) {
    const Int64 item = stack[--top];
    const Int64 a = item >> 32, b = item & 0xffffffffLL;
    if (b - a < 2) continue;
    const Int64 c = split_of(a, b);
    out[k++] = Out(c);
    stack[top++] = (c << 32) | b;  // right after left
    stack[top++] = (a << 32) | c;
  }
}

}  // namespace mcm
