// Serial DP: best[c] = the most value within capacity c using the items so far. Item i
// updates best[c] from best[c - w_i] for c from C down to w_i; going down means best[c - w_i]
// still holds the previous row's value, so one array suffices.
#include <vector>

#include "decision_bits.hpp"
#include "knapsack_cpu.hpp"

namespace knapsack::cpu {

namespace {

template <class Cell>
Packing run(const Instance& x, const Poll& poll) {
  const std::int64_t capacity = x.capacity;
  std::vector<Cell> best(std::size_t(capacity) + 1, Cell{0});
  DecisionBits bits(x.size(), capacity);
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::uint64_t* row = bits.row(i);
    std::fill_n(row, bits.stride(), std::uint64_t{0});
    const std::int64_t w = x.weight[i];
    const Cell v = static_cast<Cell>(x.value[i]);
    if (w <= capacity && v > 0) {  // an item of no value never improves a cell
      // Word by word from the top, each word's bits gathered before one store.
      for (std::int64_t word = capacity / 64; word >= 0 && word * 64 + 63 >= w; --word) {
        const std::int64_t lo = std::max(word * 64, w), hi = std::min(word * 64 + 63, capacity);
        std::uint64_t took_bits = 0;
        for (std::int64_t c = hi; c >= lo; --c) {
          const Cell keep = best[c], take = best[c - w] + v;
          const bool took = take > keep;
          best[c] = took ? take : keep;
          took_bits |= std::uint64_t(took) << (c - word * 64);
        }
        row[word] = took_bits;
      }
    }
    if (poll) poll();
  }
  return {static_cast<std::int64_t>(best[capacity]), bits.trace(x)};
}

}  // namespace

Packing dp(const Instance& x, const Poll& poll) {
  return values_fit_32_bits(x) ? run<std::int32_t>(x, poll) : run<std::int64_t>(x, poll);
}

}  // namespace knapsack::cpu
