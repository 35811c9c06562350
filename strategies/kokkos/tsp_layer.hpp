// tsp_layer.hpp — one Held-Karp layer, and the walk back through the argmins. The same source
// runs on every backend; PositionMajor is the space's cell layout (tsp_kokkos.hpp).
//
// A team stages the binomials (32-bit: C(c, i) <= C(32, 16) < 2^32) and the (n − 1)²
// distances in team scratch — shared memory on the GPU, as gpu.wavefront's layer kernel
// stages them per block — then its threads take work items grid-stride over the layer.
// Work item `item` takes the ranks item·B .. item·B + B − 1 (B = ranks_per_item): unranks
// the first, steps to the next subset of the same size for the others. For each subset S
// and position p (last city c_p) it relaxes the k − 1 predecessors:
//   cost(S, c_p) = min over q in S \ {c_p} of prev(S \ {c_p}, q) + d(q → c_p).
// The rank of S \ {c_p} is Σ_{q<p} C(c_q, q+1) + Σ_{q>p} C(c_q, q), kept as two running sums.
// Ranks are 32-bit (C(32, 16) < 2^31), cell indices 64-bit.
#pragma once
#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(__CUDA_ARCH__)
#define DPGPU_KOKKOS_UNROLL_4 _Pragma("unroll 4")
#else
#define DPGPU_KOKKOS_UNROLL_4
#endif

namespace dpgpu::kokkos {

inline constexpr int kBinomRows = 33;  // C(c, i) for c, i in 0..32

// C(c, i) from a 33 × 33 table (global memory or team scratch).
struct Binomials {
  const std::uint32_t* table = nullptr;  // [c·33 + i]
  KOKKOS_INLINE_FUNCTION std::uint32_t operator()(int c, int i) const {
    return table[c * kBinomRows + i];
  }
};

KOKKOS_INLINE_FUNCTION int lowest(std::uint32_t mask) {
  return Kokkos::Experimental::countr_zero_builtin(mask);
}

// The next larger mask with as many bits (Gosper); x is not the last subset of its layer.
KOKKOS_INLINE_FUNCTION std::uint32_t next_same_size(std::uint32_t x) {
  const std::uint32_t t = x | (x - 1);
  return (t + 1) | (((~t & (t + 1)) - 1) >> (lowest(x) + 1));
}

KOKKOS_INLINE_FUNCTION std::uint32_t unrank(const Binomials& B, int m, int k, std::uint32_t r) {
  int c = k - 1;
  while (c + 1 < m && B(c + 1, k) <= r) ++c;
  std::uint32_t mask = 0;
  for (int i = k; i >= 1; --i) {
    while (B(c, i) > r) --c;  // stops by c = i − 1, where C(i − 1, i) = 0
    mask |= 1u << c;
    r -= B(c, i);
    --c;
  }
  return mask;
}

KOKKOS_INLINE_FUNCTION std::uint32_t rank(const Binomials& B, std::uint32_t mask) {
  std::uint32_t r = 0;
  for (int i = 1; mask != 0; ++i, mask &= mask - 1) r += B(lowest(mask), i);
  return r;
}

template <bool PositionMajor>
KOKKOS_INLINE_FUNCTION std::uint64_t cell_index(std::uint32_t r, int p, std::uint32_t count,
                                                int k) {
  return PositionMajor ? std::uint64_t(p) * count + r
                       : std::uint64_t(r) * std::uint64_t(k) + std::uint64_t(p);
}

template <class Exec, class Cost, bool PositionMajor>
struct HeldKarpLayer {
  using Mem = typename Exec::memory_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::View<const std::uint32_t*, Mem> binom;  // [c·33 + i]
  Kokkos::View<const Cost*, Mem> into;            // into[j·m + c] = d(c + 1 → j + 1)
  Kokkos::View<const Cost*, Mem> prev;
  Kokkos::View<Cost*, Mem> cur;
  Kokkos::View<std::uint8_t*, Mem> argmin;  // all layers; this one from `offset`
  std::uint64_t offset = 0;
  std::uint32_t count = 0, prev_count = 0;
  std::uint32_t ranks_per_item = 1;  // consecutive subsets per work item
  std::uint32_t items = 0;           // ceil(count / ranks_per_item)
  int m = 0, k = 0;
  Cost infinity = 0;

  // Distances row stride: odd, so threads reading different columns spread over the banks.
  KOKKOS_INLINE_FUNCTION static int arc_stride(int m) { return m | 1; }
  // A function, not a static member: device code may not odr-use a host static.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t binom_bytes() {
    return (kBinomRows * kBinomRows * 4 + 7) / 8 * 8;
  }
  static std::size_t scratch_bytes(int m) {
    return binom_bytes() + std::size_t(m) * std::size_t(arc_stride(m)) * sizeof(Cost) +
           16;  // + alignment
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& t) const {
    auto* const b = static_cast<std::uint32_t*>(t.team_scratch(0).get_shmem(binom_bytes()));
    auto* const arcs = static_cast<Cost*>(
        t.team_scratch(0).get_shmem(std::size_t(m) * arc_stride(m) * sizeof(Cost)));
    const int P = t.team_size(), lane = t.team_rank(), stride = arc_stride(m);
    for (int e = lane; e < kBinomRows * kBinomRows; e += P) b[e] = binom(e);
    for (int e = lane; e < m * m; e += P) arcs[(e / m) * stride + e % m] = into(e);
    t.team_barrier();
    const Binomials B{b};
    const std::uint32_t step = std::uint32_t(t.league_size()) * std::uint32_t(P);
    for (std::uint32_t item =
             std::uint32_t(t.league_rank()) * std::uint32_t(P) + std::uint32_t(lane);
         item < items; item += step) {
      const std::uint32_t first = item * ranks_per_item;
      const std::uint32_t end = count - first < ranks_per_item ? count : first + ranks_per_item;
      std::uint32_t S = unrank(B, m, k, first);
      for (std::uint32_t r = first; r < end; ++r) {
        relax(B, arcs, stride, S, r);
        if (r + 1 < end) S = next_same_size(S);
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void relax(const Binomials& B, const Cost* arcs, int stride,
                                    const std::uint32_t S, const std::uint32_t r) const {
    std::uint32_t above = 0, below = 0;
    {
      std::uint32_t t = S & (S - 1);
      for (int q = 1; t != 0; ++q, t &= t - 1) above += B(lowest(t), q);
    }
    std::uint32_t rest = S;
    for (int p = 0; p < k; ++p) {
      const int cp = lowest(rest);
      rest &= rest - 1;
      if (p > 0) above -= B(cp, p);
      const std::uint32_t pr = below + above;
      std::uint32_t u = S & ~(1u << cp);
      const Cost* const to_cp = arcs + cp * stride;
      Cost best = infinity;
      int arg = lowest(u);
      // A counted loop (k − 1 predecessors), unrolled on the GPU as gpu.wavefront's: several
      // independent reads of the previous layer in flight per work item. (A loop ending on
      // u == 0 is not unrolled, and each read then waits for the one before: measured 1.41×
      // the native compute at n = 25.)
      DPGPU_KOKKOS_UNROLL_4
      for (int q = 0; q < k - 1; ++q) {
        const int c = lowest(u);
        u &= u - 1;
        const Cost v = prev(cell_index<PositionMajor>(pr, q, prev_count, k - 1)) + to_cp[c];
        if (v < best) best = v, arg = c;
      }
      const std::uint64_t cell = cell_index<PositionMajor>(r, p, count, k);
      cur(cell) = best;
      argmin(offset + cell) = static_cast<std::uint8_t>(arg);
      below += B(cp, p + 1);
    }
  }
};

// From the full set ending at `last`, predecessor after predecessor: the tour's cities.
template <class Exec, bool PositionMajor>
struct HeldKarpWalk {
  using Mem = typename Exec::memory_space;
  Kokkos::View<const std::uint32_t*, Mem> binom;
  Kokkos::View<const std::uint8_t*, Mem> argmin;
  Kokkos::View<const std::uint64_t*, Mem> offset;  // layer k's argmins start at offset(k)
  Kokkos::View<std::int32_t*, Mem> tour;
  int m = 0, last = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    const Binomials B{binom.data()};
    std::uint32_t S = m == 32 ? 0xffffffffu : (1u << m) - 1;
    int city = last;
    tour(0) = 0;
    for (int k = m; k >= 1; --k) {
      tour(k) = city + 1;
      if (k == 1) break;
      const int p = Kokkos::Experimental::popcount_builtin(S & ((1u << city) - 1u));
      const std::uint64_t cell = cell_index<PositionMajor>(rank(B, S), p, B(m, k), k);
      const int before = argmin(offset(k) + cell);
      S &= ~(1u << city);
      city = before;
    }
  }
};

}  // namespace dpgpu::kokkos
