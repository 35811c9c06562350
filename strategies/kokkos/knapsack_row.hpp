// knapsack_row.hpp — one 0-1 knapsack DP row, and the trace back through the decision bits.
// The same source runs on every backend; the word type and the capacity layout are the
// space's policy (knapsack_kokkos.hpp).
#pragma once
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace dpgpu::kokkos {

// Which capacities word t of a row holds: bit k is capacity t + k·W (interleaved, W words per
// row) or t·K + k (consecutive, K bits per word).
template <bool Interleaved, int K>
struct CapacityOfBit {
  std::int64_t words;  // W
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t t, int k) const {
    return Interleaved ? t + std::int64_t(k) * words : t * K + k;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t word_of(std::int64_t c) const {
    return Interleaved ? c % words : c / K;
  }
  KOKKOS_INLINE_FUNCTION int bit_of(std::int64_t c) const {
    return int(Interleaved ? c / words : c % K);
  }
};

// next[c] = max(prev[c], prev[c − w] + v); bit set when the item strictly improves c (ties
// leave it out). Work item t computes the K capacities of word t.
template <class Exec, class Cell, class Word, bool Interleaved>
struct KnapsackRow {
  static constexpr int K = 8 * sizeof(Word);
  using Mem = typename Exec::memory_space;
  Kokkos::View<const Cell*, Mem> prev;
  Kokkos::View<Cell*, Mem> next;
  Kokkos::View<Word*, Mem> bits;  // all rows
  CapacityOfBit<Interleaved, K> at;
  std::int64_t capacity = 0, row_offset = 0, w = 0;
  Cell v = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    Word word = 0;
    if constexpr (Interleaved) {
      for (int k = 0; k < K; ++k) {
        const std::int64_t c = at(t, k);
        if (c <= capacity) {
          const Cell keep = prev(c);
          const Cell take = c >= w ? prev(c - w) + v : keep;
          const bool took = take > keep;
          next(c) = took ? take : keep;
          word |= Word(took) << k;
        }
      }
    } else {
      // Consecutive capacities: below the weight a copy, above it one branch-free loop (the
      // shape of cpu.omp_dp's 64-cell blocks, which the host compiler vectorises).
      const std::int64_t lo = t * K, hi = Kokkos::min(lo + K, capacity + 1);
      const std::int64_t split = Kokkos::clamp(w, lo, hi);
      for (std::int64_t c = lo; c < split; ++c) next(c) = prev(c);
      for (std::int64_t c = split; c < hi; ++c) {
        const Cell keep = prev(c), take = prev(c - w) + v;
        const bool took = take > keep;
        next(c) = took ? take : keep;
        word |= Word(took) << (c - lo);
      }
    }
    bits(row_offset + t) = word;
  }
};

// One work item walks the rows back from the last, from capacity C: n dependent reads.
template <class Exec, class Word, bool Interleaved>
struct KnapsackTrace {
  static constexpr int K = 8 * sizeof(Word);
  using Mem = typename Exec::memory_space;
  Kokkos::View<const Word*, Mem> bits;
  Kokkos::View<const std::int64_t*, Mem> weight;  // of the rows' items
  Kokkos::View<std::uint8_t*, Mem> taken;
  CapacityOfBit<Interleaved, K> at;
  std::int64_t capacity = 0;
  int rows = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    std::int64_t c = capacity;
    for (int a = rows - 1; a >= 0; --a) {
      const bool t = (bits(std::int64_t(a) * at.words + at.word_of(c)) >> at.bit_of(c)) & 1;
      taken(a) = t;
      if (t) c -= weight(a);
    }
  }
};

}  // namespace dpgpu::kokkos
