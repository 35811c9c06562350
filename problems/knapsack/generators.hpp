// generators.hpp — the instance generators as plain functions (the registered generators
// call these; tests and other tools may call them directly). Each draws from one
// std::mt19937_64(seed), item by item, weight before value. Invalid arguments throw
// std::invalid_argument.
#pragma once
#include <cstdint>
#include <string>

#include "knapsack/knapsack.hpp"

namespace knapsack {

// Pisinger's classes ("Where are the hard knapsack problems?", 2005), weights in [1, R]:
//   uncorrelated         value in [1, R]
//   weakly_correlated    value in [max(1, w - R/10), w + R/10]
//   strongly_correlated  value = w + R/10
//   subset_sum           value = w
// (R/10 rounds down.)
enum class PisingerClass { uncorrelated, weakly_correlated, strongly_correlated, subset_sum };
const char* to_string(PisingerClass c);

// Limits that keep every total of a generated instance inside int64.
inline constexpr std::int64_t kMaxItems = 2147483647;             // 2^31 - 1: indices are int32
inline constexpr std::int64_t kMaxRange = 1000000000;             // R
inline constexpr std::int64_t kMaxPaperItems = 10000000;          // paper2014: n·0.3·C < 2^63
inline constexpr std::int64_t kMaxPaperCapacity = 1000000000000;  // 1e12

// n items of class `c` with coefficients up to `range` (R). Capacity: `capacity` when it is
// >= 0, else floor(capacity_fraction · total weight) (Pisinger's rule h/(H+1)·Σw with the
// fraction h/(H+1) given directly; 0.5 is the middle of his series).
Instance pisinger_instance(PisingerClass c, std::int64_t n, std::int64_t range,
                           std::int64_t capacity, double capacity_fraction, std::uint64_t seed);

// The paper's set-up (000_1c141bdda1f149ba, V.A.2): n items, capacity C, every weight in
// [1, paper2014_max_weight(C)], i.e. below 30 % of C; values in the same range, or in
// [1, value_max] when value_max >= 1. C >= 4 (so that some weight is below 0.3·C).
Instance paper2014_instance(std::int64_t n, std::int64_t capacity, std::int64_t value_max,
                            std::uint64_t seed);

// The largest integer w with w < 0.3·C, in exact integer arithmetic: (3C - 1) / 10.
std::int64_t paper2014_max_weight(std::int64_t capacity);

}  // namespace knapsack
