// What each solver allocates, for refusing instances that cannot fit before anything runs.
#include <limits>

#include "decision_bits.hpp"
#include "knapsack_cpu.hpp"

namespace knapsack::cpu {

namespace {

using u128 = unsigned __int128;

std::uint64_t saturated(u128 bytes) {
  constexpr auto most = std::numeric_limits<std::uint64_t>::max();
  return bytes > most ? most : static_cast<std::uint64_t>(bytes);
}

u128 cell_bytes(const Instance& x) { return values_fit_32_bits(x) ? 4 : 8; }

u128 decisions_and_result(const Instance& x) {
  return u128(x.size()) * DecisionBits::words_per_row(x.capacity) * 8 + u128(x.size()) * 4;
}

}  // namespace

bool values_fit_32_bits(const Instance& x) {
  std::int64_t total = 0;  // fits int64: the instance is well formed
  for (auto v : x.value) total += v;
  return total <= std::numeric_limits<std::int32_t>::max();
}

std::uint64_t dp_bytes(const Instance& x) {
  return saturated((u128(x.capacity) + 1) * cell_bytes(x) + decisions_and_result(x));
}

std::uint64_t omp_dp_bytes(const Instance& x) {
  return saturated(2 * (u128(x.capacity) + 1) * cell_bytes(x) + decisions_and_result(x));
}

std::uint64_t branch_bound_bytes(const Instance& x) {
  // Per item: sorted index, value, weight, two prefix sums, path flag, best path entry.
  return saturated(u128(x.size()) * (4 + 8 + 8 + 16 + 1 + 4) + 64);
}

}  // namespace knapsack::cpu
