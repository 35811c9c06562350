// tsp_register.cpp — registers kokkos.wavefront and kokkos.wavefront_host for the TSP
// (Held-Karp by layers written once; the tour as certificate).
#include <cstdint>

#include "dpgpu/registry.hpp"
#include "solvers.hpp"
#include "tsp/tsp.hpp"
#include "tsp_kokkos.hpp"

namespace dpgpu::kokkos {
namespace {

Registered register_tsp(bool device) {
  auto s = kokkos_solver<tsp::Problem>(
               device, "Held-Karp by subset-size layers written once, one dispatch per layer; argmins "
                       "kept in memory, the tour walked back there (n <= 33)")
               .param("ranks_per_item", std::int64_t{default_ranks_per_item(device)}, between(1, 1 << 20),
                      "consecutive subsets per work item: the first unranked, the others stepped to")
               .memory([device](const tsp::Instance& x, const Params&) { return tsp_memory(x, device); });
  if (const std::string why = unavailable_reason(device); !why.empty()) return s.unavailable(why);
#if DPGPU_WITH_KOKKOS
  return s.solve([device](const tsp::Instance& x, const Params& p, Context& ctx) {
    const auto ranks = static_cast<std::uint64_t>(p.integer("ranks_per_item"));
#if DPGPU_KOKKOS_CUDA
    if (device) return tsp_device(x, ranks, ctx);
#endif
    (void)device;
    return tsp_host(x, ranks, ctx);
  });
#else
  return s.unavailable("unreachable");
#endif
}

[[maybe_unused]] const Registered registered_device = register_tsp(true);
[[maybe_unused]] const Registered registered_host = register_tsp(false);

}  // namespace
}  // namespace dpgpu::kokkos
