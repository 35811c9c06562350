// cpu.omp_wavefront as the harness sees it (the algorithm: omp_wavefront.cpp).
#include "registration.hpp"

namespace lcs::cpu {
namespace {

struct OmpWavefrontConfig {
  int threads = 0;  // 0: OpenMP's default (all cores)
  int tile = 256;   // tile side in cells
};

[[maybe_unused]] const auto registered_omp_wavefront =
    dpgpu::solver<lcs::Problem, OmpWavefrontConfig>(
        "cpu.omp_wavefront", "OpenMP over anti-diagonals of tiles; length only")
        .param("threads", &OmpWavefrontConfig::threads, dpgpu::between(0, 1024),
               "OpenMP threads; 0: OpenMP's default (all cores)")
        .param("tile", &OmpWavefrontConfig::tile, dpgpu::between(1, 1 << 20), "tile side in cells")
        .counter("threads", dpgpu::CounterKind::Count, "OpenMP threads the solve ran on", "threads")
        .memory([](const lcs::Instance& x, const OmpWavefrontConfig& c) {
          const auto tile = std::uint64_t(c.tile);
          const auto tile_rows = (x.a.size() + tile - 1) / tile;
          const auto threads = std::uint64_t(threads_or_all(c.threads));
          return MemoryNeed{row_bytes(x.b.size()) + (tile_rows + threads) * row_bytes(tile), 0};
        })
        .solve([](const lcs::Instance& x, const OmpWavefrontConfig& c, Context& ctx) {
          ctx.set("threads", threads_or_all(c.threads));
          auto compute = ctx.phase("compute");
          return length_only(
              lcs::cpu::omp_wavefront(x.a, x.b, c.threads, c.tile, deadline_of(ctx)));
        });

}  // namespace
}  // namespace lcs::cpu
