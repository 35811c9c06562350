// mcm_diagonal.hpp — one diagonal l of the matrix-chain DP (entries (a, a + l), a = 0..n − l),
// written once for every backend: a work item per entry (McmEntry) or a team per entry
// (McmTeamEntry). Layouts and cell widths: mcm_kokkos.hpp.
#pragma once
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "mcm/split_walk.hpp"

namespace dpgpu::kokkos {

using McmIndex = std::int64_t;
inline constexpr std::int64_t kMcmNone = INT64_MAX;

// First word of diagonal d of the diagonal-major table (diagonal e holds w − e entries):
// gpu.mcm's layout (strategies/mcm/mcm_layout.cuh).
KOKKOS_INLINE_FUNCTION McmIndex mcm_diagonal_offset(McmIndex w, McmIndex d) {
  return d * w - d * (d - 1) / 2;
}

enum class McmLayout {
  DiagonalMajor,  // table[off(b − a) + a]
  Symmetric,      // table[a·w + b] and table[b·w + a]
};

// The table of one solve: costs in `Layout`, splits diagonal-major, dimensions as T.
template <class Mem, class T, McmLayout Layout>
struct McmTable {
  Kokkos::View<T*, Mem> cost;
  Kokkos::View<std::int32_t*, Mem> split;
  Kokkos::View<const T*, Mem> p;
  McmIndex w = 0;

  KOKKOS_INLINE_FUNCTION void store(McmIndex a, McmIndex l, std::int64_t v, McmIndex c) const {
    const McmIndex b = a + l;
    if constexpr (Layout == McmLayout::DiagonalMajor) {
      cost(mcm_diagonal_offset(w, l) + a) = T(v);
    } else {
      cost(a * w + b) = T(v);
      cost(b * w + a) = T(v);
    }
    split(mcm_diagonal_offset(w, l) + a) = std::int32_t(c);
  }
};

// Unrolls the split loop on the GPU, as gpu.mcm's thread kernel: few work items per
// dispatch, so each keeps several loads in flight.
#if defined(__CUDA_ARCH__)
#define DPGPU_KOKKOS_UNROLL_8 _Pragma("unroll 8")
#else
#define DPGPU_KOKKOS_UNROLL_8
#endif

// A work item per entry: work item a computes M[a][a + l] and its split.
template <class Exec, class T, McmLayout Layout>
struct McmEntry {
  McmTable<typename Exec::memory_space, T, Layout> tab;
  McmIndex l = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const McmIndex a) const {
    const McmIndex w = tab.w, b = a + l;
    const std::int64_t pab = std::int64_t(tab.p(a)) * std::int64_t(tab.p(b));
    const T* const M = tab.cost.data();
    const T* const p = tab.p.data();
    if constexpr (Layout == McmLayout::DiagonalMajor) {
      // M[a][a+t] = diagonal t at a; M[a+t][b] = diagonal l − t at a + t.
      McmIndex left = mcm_diagonal_offset(w, 1) + a, right = mcm_diagonal_offset(w, l - 1) + a + 1;
      std::int64_t best = kMcmNone;
      McmIndex split = a + 1;
      DPGPU_KOKKOS_UNROLL_8
      for (McmIndex t = 1; t < l; ++t) {
        const std::int64_t q =
            std::int64_t(M[left]) + std::int64_t(M[right]) + pab * std::int64_t(p[a + t]);
        if (q < best) best = q, split = a + t;
        left += w - t;                 // diagonal t → t + 1, same a
        right -= w - (l - t - 1) - 1;  // diagonal l − t → l − t − 1, index + 1
      }
      tab.store(a, l, best, split);
    } else {
      // Row a holds M[a][c], row b holds M[c][b]: a minimum over contiguous words, then the
      // first c reaching it (cpu.omp's two passes).
      const T* const row = M + a * w;
      const T* const col = M + b * w;
      std::int64_t best = kMcmNone;
      for (McmIndex c = a + 1; c < b; ++c) {
        const std::int64_t q =
            std::int64_t(row[c]) + std::int64_t(col[c]) + pab * std::int64_t(p[c]);
        best = q < best ? q : best;
      }
      McmIndex c = a + 1;
      while (std::int64_t(row[c]) + std::int64_t(col[c]) + pab * std::int64_t(p[c]) != best) ++c;
      tab.store(a, l, best, c);
    }
  }
};

// A team per entry over the symmetric table: team a's threads stride over the splits, a team
// reduction keeps the minimum and its split (any minimum is an optimal split).
template <class Exec, class T>
struct McmTeamEntry {
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Min = Kokkos::MinLoc<std::int64_t, McmIndex>;
  McmTable<typename Exec::memory_space, T, McmLayout::Symmetric> tab;
  McmIndex l = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    const McmIndex w = tab.w, a = t.league_rank(), b = a + l;
    const std::int64_t pab = std::int64_t(tab.p(a)) * std::int64_t(tab.p(b));
    const T* const row = tab.cost.data() + a * w;
    const T* const col = tab.cost.data() + b * w;
    const T* const p = tab.p.data();
    typename Min::value_type best;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(t, a + 1, b),
        [&](const McmIndex c, typename Min::value_type& v) {
          const std::int64_t q =
              std::int64_t(row[c]) + std::int64_t(col[c]) + pab * std::int64_t(p[c]);
          if (q < v.val) v.val = q, v.loc = c;
        },
        Min(best));
    Kokkos::single(Kokkos::PerTeam(t), [&] { tab.store(a, l, best.val, best.loc); });
  }
};

// One work item walks the tree of splits from [0, n) in preorder (the problem's walk, as
// gpu.mcm's walk kernel): the host receives n − 1 splits, not the split table.
template <class Exec>
struct McmWalk {
  using Mem = typename Exec::memory_space;
  Kokkos::View<const std::int32_t*, Mem> split;  // diagonal-major
  Kokkos::View<std::int32_t*, Mem> out;          // n − 1 splits
  Kokkos::View<McmIndex*, Mem> stack;            // n + 2 intervals
  McmIndex w = 0, n = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    const std::int32_t* const s = split.data();
    const McmIndex width = w;
    ::mcm::walk_splits_preorder(
        [s, width](McmIndex a, McmIndex b) {
          return McmIndex(s[mcm_diagonal_offset(width, b - a) + a]);
        },
        n, out.data(), stack.data());
  }
};

}  // namespace dpgpu::kokkos
