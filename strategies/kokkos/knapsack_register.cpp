// knapsack_register.cpp — registers kokkos.wavefront and kokkos.wavefront_host for the 0-1
// knapsack (gpu.rowwise's row-parallel DP written once; the chosen items as certificate).
#include <cstdint>

#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_kokkos.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {
namespace {

Registered register_knapsack(bool device) {
  auto s = kokkos_solver<knapsack::Problem>(
               device, "row-wise DP written once: each item's row fully parallel, one dispatch per item; "
                       "decision bits kept in memory, the chosen items traced back there")
               .param("word_bits", std::int64_t{default_word_bits(device)}, between(8, 64),
                      device ? "decision bits per work item, 8 or 32 (capacities interleaved across the row)"
                             : "decision bits per work item, 32 or 64 (consecutive capacities)")
               .memory([device](const knapsack::Instance& x, const Params& p) {
                 return knapsack_memory(x, device, static_cast<int>(p.integer("word_bits")));
               });
  if (const std::string why = unavailable_reason(device); !why.empty()) return s.unavailable(why);
#if DPGPU_WITH_KOKKOS
  return s.solve([device](const knapsack::Instance& x, const Params& p, Context& ctx) {
    const int word_bits = static_cast<int>(p.integer("word_bits"));
#if DPGPU_KOKKOS_CUDA
    if (device) return knapsack_device(x, word_bits, ctx);
#endif
    (void)device;
    return knapsack_host(x, word_bits, ctx);
  });
#else
  return s.unavailable("unreachable");
#endif
}

[[maybe_unused]] const Registered registered_device = register_knapsack(true);
[[maybe_unused]] const Registered registered_host = register_knapsack(false);

}  // namespace
}  // namespace dpgpu::kokkos
