// knapsack_register.cpp — registers kokkos.wavefront and kokkos.wavefront_host for the 0-1
// knapsack (gpu.rowwise's row-parallel DP written once; the chosen items as certificate).
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
               .memory([device](const knapsack::Instance& x, const Params&) { return knapsack_memory(x, device); });
  if (const std::string why = unavailable_reason(device); !why.empty()) return s.unavailable(why);
#if DPGPU_WITH_KOKKOS
  return s.solve([device](const knapsack::Instance& x, const Params&, Context& ctx) {
#if DPGPU_KOKKOS_CUDA
    if (device) return knapsack_device(x, ctx);
#endif
    (void)device;
    return knapsack_host(x, ctx);
  });
#else
  return s.unavailable("unreachable");
#endif
}

[[maybe_unused]] const Registered registered_device = register_knapsack(true);
[[maybe_unused]] const Registered registered_host = register_knapsack(false);

}  // namespace
}  // namespace dpgpu::kokkos
