// tsp_params.cpp — registers kokkos.wavefront and kokkos.wavefront_host for the TSP
// (Held-Karp by layers written once; the tour as certificate).
#include <cstdint>
#include <optional>
#include <string>

#include "dpgpu/registry.hpp"
#include "kokkos_counters.hpp"
#include "solvers.hpp"
#include "tsp/tsp.hpp"
#include "tsp_kokkos.hpp"

namespace dpgpu::kokkos {
namespace {

template <Space S>
Registered register_tsp() {
  using C = TspKokkosConfig<S>;
  constexpr bool device = S == Space::Device;
  auto s = kokkos_solver<tsp::Problem, C>(
      S, solver_name(S),
      "Held-Karp by subset-size layers written once, one dispatch per layer, binomials and "
      "distances "
      "in team scratch; argmins kept in memory, the tour walked back there (n <= 33)");
  s.param("ranks_per_item", &C::ranks_per_item, between(1, 1 << 20),
          "consecutive subsets per work item: the first unranked, the others stepped to");
  if constexpr (device)  // the host team is one thread
    s.param("team_size", &C::team_size, between(32, 1024), "threads per team, a multiple of 32")
        .rule("team_size", multiple_of(32));
  s.check_instance([](const C&, const ValueMap& dims) -> std::optional<std::string> {
     const auto n = std::int64_t(to_number(dims.at("n")));
     if (n > kTspMaxCities)
       return "n = " + std::to_string(n) + " is above " + std::to_string(kTspMaxCities) +
              " cities (32-bit subset masks)";
     return std::nullopt;
   }).memory([](const tsp::Instance& x, const C&) { return tsp_memory(x, device); });
  s.counters(tsp_counters());
  return kokkos_solve<S>(
      s, [](const tsp::Instance& x, const auto& c, Context& ctx) { return tsp_solve(x, c, ctx); });
}

[[maybe_unused]] const Registered registered_device = register_tsp<Space::Device>();
[[maybe_unused]] const Registered registered_host = register_tsp<Space::Host>();

}  // namespace
}  // namespace dpgpu::kokkos
