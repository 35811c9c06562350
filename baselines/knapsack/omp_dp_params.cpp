// cpu.omp_dp as the harness sees it (the algorithm: omp_dp.cpp).
#include <omp.h>

#include "registration.hpp"

namespace knapsack::cpu {
namespace {

struct OmpDpConfig {
  int threads = 0;  // 0: OpenMP's default (all cores)
};

[[maybe_unused]] const auto registered_omp_dp =
    dpgpu::solver<knapsack::Problem, OmpDpConfig>(
        "cpu.omp_dp", "OpenMP DP: each item's row in parallel over capacities; certificate")
        .param("threads", &OmpDpConfig::threads, dpgpu::between(0, 1024),
               "OpenMP threads; 0: OpenMP's default (all cores)")
        .counter("threads", dpgpu::CounterKind::Count, "OpenMP threads the solve ran on", "threads")
        .counter("cell_bits", dpgpu::CounterKind::Count, "width of a DP cell (32 or 64)", "bits")
        .memory([](const knapsack::Instance& x, const OmpDpConfig&) {
          return MemoryNeed{knapsack::cpu::omp_dp_bytes(x), 0};
        })
        .solve([](const knapsack::Instance& x, const OmpDpConfig& c, Context& ctx) {
          ctx.set("threads", c.threads > 0 ? c.threads : omp_get_max_threads());
          count_dp(ctx, x);
          return allocating("cpu.omp_dp", knapsack::cpu::omp_dp_bytes(x), [&] {
            auto compute = ctx.phase("compute");
            return with_certificate(knapsack::cpu::omp_dp(x, c.threads, deadline_of(ctx)));
          });
        });

}  // namespace
}  // namespace knapsack::cpu
