// cpu.omp_held_karp as the harness sees it (the algorithm: omp_held_karp.cpp).
#include <omp.h>

#include "registration.hpp"

namespace tsp::cpu {
namespace {

struct OmpHeldKarpConfig {
  int threads = 0;                               // 0: OpenMP's default (all cores)
  std::int64_t block = tsp::cpu::kDefaultBlock;  // consecutive subsets per OpenMP task
};

[[maybe_unused]] const auto registered_omp_held_karp =
    dpgpu::solver<tsp::Problem, OmpHeldKarpConfig>(
        "cpu.omp_held_karp",
        "Held-Karp DP, OpenMP over the ranked subsets of one size, layer after layer")
        .param("threads", &OmpHeldKarpConfig::threads, dpgpu::between(0, 1024),
               "OpenMP threads; 0: OpenMP's default (all cores)")
        .param("block", &OmpHeldKarpConfig::block, dpgpu::between(1, 1 << 24),
               "consecutive subsets per OpenMP task; a layer of one block runs on one thread")
        .counter("threads", dpgpu::CounterKind::Count, "OpenMP threads the solve ran on", "threads")
        .counter("cell_bytes", dpgpu::CounterKind::Bytes, "one cell of the cost table (4 or 8)")
        .counter("table_bytes", dpgpu::CounterKind::Bytes, "the whole table the solve allocates")
        .memory([](const tsp::Instance& x, const OmpHeldKarpConfig&) {
          return MemoryNeed{tsp::cpu::omp_held_karp_bytes(x), 0};
        })
        .solve([](const tsp::Instance& x, const OmpHeldKarpConfig& c, Context& ctx) {
          ctx.set("threads", c.threads > 0 ? c.threads : omp_get_max_threads());
          ctx.set("cell_bytes", double(tsp::cpu::held_karp_cell_bytes(x)));
          return computed(ctx, "cpu.omp_held_karp", tsp::cpu::omp_held_karp_bytes(x), [&] {
            return tsp::cpu::omp_held_karp(x, c.threads, std::uint64_t(c.block), deadline_of(ctx));
          });
        });

}  // namespace
}  // namespace tsp::cpu
