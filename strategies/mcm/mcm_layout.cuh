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
//  * 32-bit cells whose bound is not proven (`cell: auto`): a cost of 2^32 - 1 or more is
//    stored as the escape 0xFFFFFFFF in the two 32-bit copies and exactly in `wide`
//    (w × w, 64-bit, written only there): every value is exact, and operands cost 4 bytes
//    while they fit.
#pragma once
#include <cstdint>

namespace dpgpu::mcm_gpu {

using ll = long long;

// First word of diagonal d (diagonal e holds w - e entries).
__host__ __device__ inline ll diag_offset(ll w, ll d) { return d * w - d * (d - 1) / 2; }

constexpr unsigned kEscape = 0xffffffffu;

template <class T>
struct Table {
  T* diag;              // diag_offset(w, w) words
  T* sym;               // w·w words
  std::int32_t* split;  // diag_offset(w, w) words, diagonal-major
  const T* p;           // w dimensions, as T (products in 64 bits)
  ll w;
  unsigned long long* wide = nullptr;     // 32-bit cells with escape: M[a][b] at a·w + b (a < b)
  unsigned long long* escaped = nullptr;  // count of escaped cells

  // The value of M[r][c] whose stored cell is v.
  __device__ unsigned long long get(T v, ll r, ll c) const {
    if constexpr (sizeof(T) == 4)
      if (v == kEscape && wide) return wide[r * w + c];
    return v;
  }

  __device__ void store(ll a, ll d, unsigned long long best, int c) const {
    const ll b = a + d;
    T v = T(best);
    if constexpr (sizeof(T) == 4)
      if (wide && best >= kEscape) {
        wide[a * w + b] = best;
        v = T(kEscape);
        atomicAdd(escaped, 1ull);
      }
    diag[diag_offset(w, d) + a] = v;
    sym[a * w + b] = v;
    sym[b * w + a] = v;
    split[diag_offset(w, d) + a] = c;
  }
};

}  // namespace dpgpu::mcm_gpu
