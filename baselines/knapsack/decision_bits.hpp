// decision_bits.hpp — the DPs' record of which items they took: bit (i, c) is set when
// item i improved capacity c. Row i is ceil((C+1)/64) words, so threads that own whole words
// of a row never share one. Reading the rows back from the last item rebuilds the packing.
#pragma once
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "knapsack/knapsack.hpp"

namespace knapsack::cpu {

class DecisionBits {
 public:
  // Not zeroed: every row must be written in full by the DP (bad_alloc when too large).
  DecisionBits(std::size_t rows, std::int64_t capacity)
      : stride_(words_per_row(capacity)), words_(new std::uint64_t[words(rows, stride_)]) {}

  static std::size_t words_per_row(std::int64_t capacity) {
    return (std::size_t(capacity) + 1 + 63) / 64;
  }
  std::size_t stride() const { return stride_; }
  std::uint64_t* row(std::size_t item) { return words_.get() + item * stride_; }
  bool taken(std::size_t item, std::int64_t c) const {
    return words_[item * stride_ + std::size_t(c) / 64] >> (std::size_t(c) % 64) & 1;
  }

  // The packing behind the DP's value at capacity C, in ascending item order.
  std::vector<std::int32_t> trace(const Instance& x) const {
    std::vector<std::int32_t> items;
    std::int64_t c = x.capacity;
    for (std::size_t i = x.size(); i-- > 0;)
      if (taken(i, c)) {
        items.push_back(static_cast<std::int32_t>(i));
        c -= x.weight[i];
      }
    return {items.rbegin(), items.rend()};
  }

 private:
  static std::size_t words(std::size_t rows, std::size_t stride) {
    std::size_t total = 0;
    if (__builtin_mul_overflow(rows, stride, &total)) throw std::bad_alloc();
    return total;
  }

  std::size_t stride_;
  std::unique_ptr<std::uint64_t[]> words_;
};

}  // namespace knapsack::cpu
