// mcm_cpu.hpp — CPU solvers of the matrix-chain problem as plain functions (each
// <algorithm>_params.cpp makes one a solver): the paper's textbook O(n³) DP, and the same DP parallel over each
// diagonal with contiguous reads of both operands.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "mcm/mcm.hpp"

namespace mcm::cpu {

using Poll = std::function<void()>;  // called once per diagonal; throws to stop

struct Answer {
  std::int64_t cost = 0;
  std::string parenthesization;
};

// The paper's Figure 3 (CLRS MATRIX-CHAIN-ORDER): for l = 2..n, for each i, for each k.
// Tables m (int64) and s, row-major; refuses instances whose costs could overflow int64.
Answer serial(const Instance& x, const Poll& poll = {});

// Diagonal-parallel (OpenMP, `threads`, 0: all cores). One square array holds M[a][b] above
// the diagonal and M[a][b] again at [b][a] below it, so M[a][c] (row a) and M[c][b] (read as
// row b) are both contiguous in c; a vectorised minimum, then the first c reaching it.
Answer omp(const Instance& x, int threads, const Poll& poll = {});

// The O(n log n) algorithm of Hu and Shing (hu_shing.cpp says how): cost and parenthesization.
Answer hu_shing(const Instance& x);

// Bytes of host memory each needs.
std::uint64_t serial_bytes(const Instance& x);
std::uint64_t omp_bytes(const Instance& x);
std::uint64_t hu_shing_bytes(const Instance& x);

}  // namespace mcm::cpu
