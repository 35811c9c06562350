// tsp_memory.cpp — the memory estimate of both Kokkos TSP solvers (every build).
#include <algorithm>
#include <limits>

#include "tsp/subset_rank.hpp"
#include "tsp_kokkos.hpp"

namespace dpgpu::kokkos {

MemoryNeed tsp_memory(const tsp::Instance& x, bool device) {
  using tsp::subsets::kBinomials;
  if (x.n > kTspMaxCities) return MemoryNeed{0, 0};  // refused by name in the solve
  const int m = std::max(x.n - 1, 0);
  const std::uint64_t cell =
      tsp::cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max() ? 4 : 8;
  std::uint64_t largest = 0, argmins = 0;
  for (int k = 1; k <= m; ++k) {
    largest = std::max(largest, kBinomials(m, k) * std::uint64_t(k));
    if (k >= 2) argmins += kBinomials(m, k) * std::uint64_t(k);
  }
  const std::uint64_t bytes = 2 * largest * cell + argmins + std::uint64_t(m) * m * cell +
                              33 * 33 * 4 + std::uint64_t(m + 2) * 8 + std::uint64_t(x.n) * 4;
  const std::uint64_t staging =
      std::uint64_t(m) * m * cell + 33 * 33 * 4 + std::uint64_t(m + 2) * 8 + largest * cell;
  return device ? MemoryNeed{staging, bytes} : MemoryNeed{bytes, 0};
}

}  // namespace dpgpu::kokkos
