// knapsack_params.cpp — registers kokkos.wavefront and kokkos.wavefront_host for the 0-1
// knapsack (gpu.rowwise's row-parallel DP written once; the chosen items as certificate).
#include <cstdint>
#include <string>

#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_kokkos.hpp"
#include "kokkos_counters.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {
namespace {

template <Space S>
Registered register_knapsack() {
  using C = KnapsackKokkosConfig<S>;
  constexpr bool device = S == Space::Device;
  auto s =
      kokkos_solver<knapsack::Problem, C>(
          S, solver_name(S),
          "row-wise DP written once: each item's row fully parallel, one dispatch per item; "
          "decision bits kept in memory, the chosen items traced back there")
          .param(
              "word_bits", &C::word_bits, between(8, 64),
              device
                  ? "decision bits per work item, 8 or 32 (capacities interleaved across the row)"
                  : "decision bits per work item, 32 or 64 (consecutive capacities)")
          .rule("word_bits", one_of(compiled_word_bits(device)))
          .memory([](const knapsack::Instance& x, const C& c) {
            return knapsack_memory(x, device, c.word_bits);
          });
  s.counters(knapsack_counters());
  return kokkos_solve<S>(s, [](const knapsack::Instance& x, const auto& c, Context& ctx) {
    if constexpr (device)
      return knapsack_device(x, c.word_bits, ctx);
    else
      return knapsack_host(x, c.word_bits, ctx);
  });
}

[[maybe_unused]] const Registered registered_device = register_knapsack<Space::Device>();
[[maybe_unused]] const Registered registered_host = register_knapsack<Space::Host>();

}  // namespace
}  // namespace dpgpu::kokkos
