// knapsack_cpu.hpp — CPU algorithms for the 0-1 knapsack, as plain functions (each
// <algorithm>_params.cpp makes one a solver). Each takes a `Poll` that it calls regularly (once per item row in the
// DPs, every few thousand nodes in branch and bound); it throws (dpgpu::Timeout from the
// solver's context) to stop them. Instances must be well formed (knapsack/well_formed.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "knapsack/knapsack.hpp"

namespace knapsack::cpu {

using Poll = std::function<void()>;  // empty: never stops early

// An optimal packing: its value and the chosen items (0-based, ascending).
struct Packing {
  std::int64_t value = 0;
  std::vector<std::int32_t> items;
};

// DP cells are 32-bit when the instance's total value fits, else 64-bit.
bool values_fit_32_bits(const Instance& x);

// Serial DP over one array best[0..C] updated in place from high capacities down, plus one
// decision bit per item and capacity (rows of ceil((C+1)/64) words) to rebuild the packing.
Packing dp(const Instance& x, const Poll& poll = {});
std::uint64_t dp_bytes(const Instance& x);  // what dp allocates (saturates at 2^64 - 1)

// OpenMP DP: each item's row is computed in parallel over capacities, from the previous row
// into a second array (blocks of 64 capacities per task, so each thread owns whole words of
// decision bits). threads 0: OpenMP's default (OMP_NUM_THREADS, else all cores).
Packing omp_dp(const Instance& x, int threads, const Poll& poll = {});
std::uint64_t omp_dp_bytes(const Instance& x);

// Depth-first branch and bound over items sorted by value/weight, pruned by the Dantzig
// (linear relaxation) bound; exponential in the worst case, so it polls.
struct SearchStats {
  std::uint64_t nodes = 0;  // search nodes visited
};
Packing branch_bound(const Instance& x, const Poll& poll = {}, SearchStats* stats = nullptr);
std::uint64_t branch_bound_bytes(const Instance& x);

}  // namespace knapsack::cpu
