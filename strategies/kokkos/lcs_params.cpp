// lcs_params.cpp — registers kokkos.wavefront and kokkos.wavefront_host for LCS: each
// parameter bound to its LcsKokkosConfig field, the rules validate() enforces, the length
// limit, the device-memory estimate, and (in Kokkos builds) the solve. Plain C++.
#include <cstdint>
#include <optional>
#include <string>

#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#include "lcs_kokkos_config.hpp"
#include "lcs_kokkos.hpp"
#include "kokkos_counters.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {
namespace {

template <Space S>
Registered register_lcs() {
  using C = LcsKokkosConfig<S>;
  const std::string name = solver_name(S);
  auto s = kokkos_solver<lcs::Problem, C>(
               S, name,
               "the diagonal-wavefront model written once in Kokkos; tile = a team per tile, "
               "cell = a work item per cell as published; length only")
               .choice("mode", &C::mode, {{"tile", LcsMode::Tile}, {"cell", LcsMode::Cell}},
                       "tile: team per tile, dispatch per tile diagonal; cell: work item per cell, "
                       "dispatch per cell diagonal (paper 000's model)")
               .param("rows_per_thread", &C::rows_per_thread, between(4, 512),
                      "tile: rows per team thread, one of " + list_text(compiled_rows(S)) + " (" +
                          std::to_string(team_threads(S)) + " thread(s) per team); ignored by cell")
               .param("columns_per_step", &C::columns_per_step, between(1, 8),
                      "tile: columns a team thread computes between team barriers, one of " +
                          list_text(compiled_columns(S)) + "; ignored by cell")
               .param("tile_width", &C::tile_width, between(32, 65536),
                      "tile: columns per tile, a multiple of 32; ignored by cell")
               .check([name](const C& c) { return refusal_of([&] { validate(c, name); }); })
               .check_instance([](const C&, const ValueMap& dims) -> std::optional<std::string> {
                 const std::int64_t length =
                     std::int64_t(to_number(dims.at("n")) + to_number(dims.at("m")));
                 if (length > kMaxLength)
                   return "|a| + |b| = " + std::to_string(length) + " exceeds the " +
                          std::to_string(kMaxLength) + " symbols of 32-bit indices";
                 return std::nullopt;
               })
               .memory([](const lcs::Instance& x, const C& c) {
                 const std::uint64_t bytes =
                     device_bytes(std::int64_t(x.a.size()), std::int64_t(x.b.size()), c);
                 return S == Space::Device ? MemoryNeed{8, bytes} : MemoryNeed{bytes, 0};
               });
  s.counters(lcs_counters());
  return kokkos_solve<S>(s, [](const lcs::Instance& x, const auto& c, Context& ctx) {
    Outcome<lcs::Solution> out;
    out.objective = lcs_length(x.a, x.b, c, ctx);
    return out;
  });
}

[[maybe_unused]] const Registered registered_device = register_lcs<Space::Device>();
[[maybe_unused]] const Registered registered_host = register_lcs<Space::Host>();

}  // namespace
}  // namespace dpgpu::kokkos
