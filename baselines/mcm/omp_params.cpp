// cpu.omp as the harness sees it (the algorithm: omp.cpp).
#include "registration.hpp"

namespace mcm::cpu {
namespace {

struct OmpConfig {
  int threads = 0;  // 0: all cores
};

[[maybe_unused]] const dpgpu::Registered omp_registered =
    dpgpu::solver<Problem, OmpConfig>(
        "cpu.omp",
        "O(n³) DP, each diagonal's entries over the cores (OpenMP); transposed copy so "
        "both operands are read contiguously")
        .param("threads", &OmpConfig::threads, dpgpu::between(0, 1024),
               "OpenMP threads; 0: all cores")
        .check_instance(int64_rule)
        .counter("threads", dpgpu::CounterKind::Count, "OpenMP threads the solve ran on", "threads")
        .memory([](const Instance& x, const OmpConfig&) {
          return dpgpu::MemoryNeed{omp_bytes(x), 0};
        })
        .solve([](const Instance& x, const OmpConfig& c, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          ctx.set("threads", double(c.threads));
          return outcome(omp(x, c.threads, [&] { ctx.check_deadline(); }));
        });

}  // namespace
}  // namespace mcm::cpu
