// reference.hpp — the tiny reference solver that tests hold every other solver to.
// Deliberately plain (every subset), so it is easy to trust.
#pragma once
#include <cstdint>

#include "knapsack/knapsack.hpp"

namespace knapsack {

// The optimum by enumerating all 2^n subsets; n <= 24 (std::invalid_argument otherwise).
std::int64_t brute_force_optimum(const Instance& x);

}  // namespace knapsack
