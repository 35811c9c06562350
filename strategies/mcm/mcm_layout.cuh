// mcm_layout.cuh — where gpu.mcm keeps the DP table M[a][b] (points 0..n, w = n + 1).
//
//  * diagonal-major (the paper's Figure 6(c)): diagonal d = b - a stored contiguously,
//    diag[off(d) + a]. OneThreadPerOneEntry gives thread a the entry (a, a + l); at split
//    t = c - a it reads M[a][a+t] = diag[off(t) + a] and M[a+t][b] = diag[off(l-t) + a + t]:
//    consecutive threads read consecutive words for both operands.
//  * symmetric square: sym[a·w + b] = M[a][b] and sym[b·w + a] = M[a][b], so the entry (a, b)
//    reads row a (M[a][c]) and row b (M[c][b]) contiguously in c: what the block kernels
//    stride over. The table is stored twice (once per layout) so every kernel reads
//    contiguous memory; each entry is written three times.
//  * the split c of each entry, diagonal-major, int32.
#pragma once
#include <cstdint>

namespace dpgpu::mcm_gpu {

using ll = long long;

// First word of diagonal d (diagonal e holds w - e entries).
__host__ __device__ inline ll diag_offset(ll w, ll d) { return d * w - d * (d - 1) / 2; }

template <class T>
struct Table {
  T* diag;           // diag_offset(w, w) words
  T* sym;            // w·w words
  std::int32_t* split;  // diag_offset(w, w) words, diagonal-major
  const T* p;        // w dimensions, as T (products in 64 bits)
  ll w;

  __device__ void store(ll a, ll d, unsigned long long best, int c) const {
    const ll b = a + d;
    const T v = T(best);
    diag[diag_offset(w, d) + a] = v;
    sym[a * w + b] = v;
    sym[b * w + a] = v;
    split[diag_offset(w, d) + a] = c;
  }
};

}  // namespace dpgpu::mcm_gpu
