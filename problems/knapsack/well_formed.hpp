// well_formed.hpp — what every knapsack instance promises, so that solvers need not check:
// equal lengths, fewer than 2^31 items (indices are int32), nothing negative, and totals of
// values and of weights that fit int64 (so no sum a solver forms can overflow).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knapsack/knapsack.hpp"

namespace knapsack {

// Why `x` is not well formed, or "" when it is. Items are named by 0-based index.
std::string why_malformed(const Instance& x);

// Sum of `values`, or nullopt when it does not fit int64.
std::optional<std::int64_t> checked_sum(const std::vector<std::int64_t>& values);

}  // namespace knapsack
