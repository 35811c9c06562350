// OpenMP DP: row i is computed from row i-1 into the other of two arrays, so all capacities
// of a row are independent. Capacities are split in blocks of 64 so that a thread writes
// whole words of decision bits and no two threads share a word. One barrier per row (the end
// of the work-shared loop) is all the synchronisation: which array holds the previous row is
// worked out by every thread alike, and the stop decision is read only after a barrier.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <vector>

#include "decision_bits.hpp"
#include "knapsack_cpu.hpp"

namespace knapsack::cpu {

namespace {

// Row `prev` + item (w, v) -> row `cur` for the 64 capacities of word k; returns their bits.
template <class Cell>
std::uint64_t update_block(const Cell* prev, Cell* cur, std::int64_t capacity, std::int64_t w,
                           Cell v, std::size_t k) {
  const std::int64_t lo = std::int64_t(k) * 64, hi = std::min(lo + 64, capacity + 1);
  const std::int64_t split = std::clamp(w, lo, hi);  // below it the item does not fit
  std::copy(prev + lo, prev + split, cur + lo);
  std::uint64_t bits = 0;
  for (std::int64_t c = split; c < hi; ++c) {
    const Cell keep = prev[c], take = prev[c - w] + v;
    const bool took = take > keep;
    cur[c] = took ? take : keep;
    bits |= std::uint64_t(took) << (c - lo);
  }
  return bits;
}

template <class Cell>
Packing run(const Instance& x, int threads, const Poll& poll) {
  const std::int64_t capacity = x.capacity;
  std::vector<Cell> row_a(std::size_t(capacity) + 1, Cell{0}), row_b(std::size_t(capacity) + 1);
  Cell* const rows[2] = {row_a.data(), row_b.data()};
  DecisionBits bits(x.size(), capacity);
  const std::size_t words = bits.stride();
  const int team = threads > 0 ? threads : omp_get_max_threads();

  // Exceptions may not leave a parallel region. The poll runs in the master thread before
  // row i's loop and records i in `stop_row`; every thread reads `stop_row` after row i's
  // barrier (by then it is written) and compares it with i (a row it cannot be yet before
  // that barrier), so all threads leave after the same row.
  constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();
  std::exception_ptr stopped;
  std::atomic<std::size_t> stop_row{kNever};
  int last = 0;  // the array holding the final row
#pragma omp parallel num_threads(team)
  {
    int previous = 0;  // which array holds the previous row: the same in every thread
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (poll && omp_get_thread_num() == 0) {
        try {
          poll();
        } catch (...) {
          stopped = std::current_exception();
          stop_row = i;
        }
      }
      const std::int64_t w = x.weight[i];
      const Cell v = static_cast<Cell>(x.value[i]);
      const bool changes = w <= capacity && v > 0;  // else the row is the previous one, no bits
      const Cell* prev = rows[previous];
      Cell* cur = rows[1 - previous];
      std::uint64_t* row_bits = bits.row(i);
#pragma omp for schedule(static)
      for (std::size_t k = 0; k < words; ++k)
        row_bits[k] = changes ? update_block(prev, cur, capacity, w, v, k) : 0;
      if (changes) previous = 1 - previous;
      if (stop_row.load() <= i) break;
    }
#pragma omp master
    last = previous;
  }
  if (stopped) std::rethrow_exception(stopped);
  return {static_cast<std::int64_t>(rows[last][capacity]), bits.trace(x)};
}

}  // namespace

Packing omp_dp(const Instance& x, int threads, const Poll& poll) {
  return values_fit_32_bits(x) ? run<std::int32_t>(x, threads, poll)
                               : run<std::int64_t>(x, threads, poll);
}

}  // namespace knapsack::cpu
