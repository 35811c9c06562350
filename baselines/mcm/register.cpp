// Registers cpu.serial, cpu.omp and cpu.hu_shing for the matrix-chain problem. Each refuses an
// instance whose costs could overflow int64 (a declared rule, so `dpgpu check` finds it).
#include <optional>
#include <string>

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

// The int64 cost bound, a rule between every solver here and the instance.
std::optional<std::string> int64_rule(const dpgpu::Params&, const Instance& x) { return dpgpu::refusal(int64_excess(x)); }

[[maybe_unused]] const dpgpu::Registered serial_registered =
    dpgpu::solver<Problem>("cpu.serial", "the paper's Figure 3: textbook O(n³) DP, tables m and s, one core")
        .check_instance(int64_rule)
        .memory([](const Instance& x, const dpgpu::Params&) { return dpgpu::MemoryNeed{serial_bytes(x), 0}; })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          return outcome(serial(x, [&] { ctx.check_deadline(); }));
        });

struct OmpConfig {
  int threads = 0;  // 0: all cores
};

[[maybe_unused]] const dpgpu::Registered omp_registered =
    dpgpu::solver<Problem, OmpConfig>("cpu.omp",
                                      "O(n³) DP, each diagonal's entries over the cores (OpenMP); transposed copy so "
                                      "both operands are read contiguously")
        .param("threads", &OmpConfig::threads, dpgpu::between(0, 1024), "OpenMP threads; 0: all cores")
        .check_instance(int64_rule)
        .memory([](const Instance& x, const OmpConfig&) { return dpgpu::MemoryNeed{omp_bytes(x), 0}; })
        .solve([](const Instance& x, const OmpConfig& c, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          ctx.set("threads", double(c.threads));
          return outcome(omp(x, c.threads, [&] { ctx.check_deadline(); }));
        });

[[maybe_unused]] const dpgpu::Registered hu_shing_registered =
    dpgpu::solver<Problem>("cpu.hu_shing",
                           "Hu and Shing's O(n log n) algorithm (the polygon form: h-arcs, supporting weights, "
                           "mergeable heaps), cost and parenthesization, one core")
        .check_instance(int64_rule)
        .memory([](const Instance& x, const dpgpu::Params&) { return dpgpu::MemoryNeed{hu_shing_bytes(x), 0}; })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          return outcome(hu_shing(x));
        });

}  // namespace
}  // namespace mcm::cpu
