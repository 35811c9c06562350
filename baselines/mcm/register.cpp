// Registers cpu.serial and cpu.omp for the matrix-chain problem.
#include "dpgpu/registry.hpp"
#include "mcm_cpu.hpp"

namespace mcm::cpu {
namespace {

dpgpu::Outcome<Solution> outcome(Answer a) {
  dpgpu::Outcome<Solution> o;
  o.objective = dpgpu::Objective(a.cost);
  o.solution = Solution{std::move(a.parenthesization)};
  return o;
}

[[maybe_unused]] const dpgpu::Registered serial_registered =
    dpgpu::solver<Problem>("cpu.serial", "the paper's Figure 3: textbook O(n³) DP, tables m and s, one core")
        .memory([](const Instance& x, const dpgpu::Params&) { return dpgpu::MemoryNeed{serial_bytes(x), 0}; })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          return outcome(serial(x, [&] { ctx.check_deadline(); }));
        });

[[maybe_unused]] const dpgpu::Registered omp_registered =
    dpgpu::solver<Problem>("cpu.omp",
                           "O(n³) DP, each diagonal's entries over the cores (OpenMP); transposed copy so both "
                           "operands are read contiguously")
        .param("threads", std::int64_t{0}, dpgpu::between(0, 1024), "OpenMP threads; 0: all cores")
        .memory([](const Instance& x, const dpgpu::Params&) { return dpgpu::MemoryNeed{omp_bytes(x), 0}; })
        .solve([](const Instance& x, const dpgpu::Params& prm, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          const int threads = int(prm.integer("threads"));
          ctx.set("threads", double(threads));
          return outcome(omp(x, threads, [&] { ctx.check_deadline(); }));
        });

}  // namespace
}  // namespace mcm::cpu
