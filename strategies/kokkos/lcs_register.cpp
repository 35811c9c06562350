// lcs_register.cpp — registers kokkos.wavefront and kokkos.wavefront_host for LCS: schema,
// device-memory estimate, and (in Kokkos builds) the solve. Plain C++.
#include <cstdint>
#include <string>

#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#include "lcs_config.hpp"
#include "lcs_kokkos.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {
namespace {

LcsKokkosConfig config_from(const Params& p) {
  LcsKokkosConfig c;
  c.mode = p.text("mode") == "cell" ? LcsMode::Cell : LcsMode::Tile;
  c.rows_per_thread = static_cast<int>(p.integer("rows_per_thread"));
  c.tile_width = static_cast<int>(p.integer("tile_width"));
  return c;
}

Registered register_lcs(bool device) {
  const Space space = device ? Space::Device : Space::Host;
  const LcsKokkosConfig d = default_config(space);
  std::string rows;
  for (int r : compiled_rows(space)) rows += (rows.empty() ? "" : ", ") + std::to_string(r);
  auto s = kokkos_solver<lcs::Problem>(
               device, "the diagonal-wavefront model written once in Kokkos; tile = a team per tile, "
                       "cell = a work item per cell as published; length only")
               .choice("mode", "tile", {"tile", "cell"},
                       "tile: team per tile, dispatch per tile diagonal; cell: work item per cell, "
                       "dispatch per cell diagonal (paper 000's model)")
               .param("rows_per_thread", std::int64_t{d.rows_per_thread}, between(4, 512),
                      "tile: rows per team thread, one of " + rows + " (" + std::to_string(team_threads(space)) +
                          " thread(s) per team); ignored by cell")
               .param("tile_width", std::int64_t{d.tile_width}, between(32, 65536),
                      "tile: columns per tile, a multiple of 32; ignored by cell")
               .memory([space](const lcs::Instance& x, const Params& p) {
                 const std::uint64_t bytes = device_bytes(std::int64_t(x.a.size()), std::int64_t(x.b.size()), config_from(p), space);
                 return space == Space::Device ? MemoryNeed{8, bytes} : MemoryNeed{bytes, 0};
               });
  if (const std::string why = unavailable_reason(device); !why.empty()) return s.unavailable(why);
#if DPGPU_WITH_KOKKOS
  return s.solve([device](const lcs::Instance& x, const Params& p, Context& ctx) {
    Outcome<lcs::Solution> out;
#if DPGPU_KOKKOS_CUDA
    if (device) {
      out.objective = lcs_length_device(x.a, x.b, config_from(p), ctx);
      return out;
    }
#endif
    (void)device;
    out.objective = lcs_length_host(x.a, x.b, config_from(p), ctx);
    return out;
  });
#else
  return s.unavailable("unreachable");
#endif
}

[[maybe_unused]] const Registered registered_device = register_lcs(true);
[[maybe_unused]] const Registered registered_host = register_lcs(false);

}  // namespace
}  // namespace dpgpu::kokkos
