// cpu.omp_dfs as the harness sees it (the algorithm: omp_dfs.cpp).
#include <omp.h>

#include "search_registration.hpp"

namespace tsp::cpu {
namespace {

using dpgpu::Context;

struct OmpDfsConfig {
  std::string initial_ub = "optimal";
  int threads = 0;
  int split_depth = tsp::cpu::kDefaultSplitDepth;
};

[[maybe_unused]] const auto registered_omp_dfs =
    search_solver<OmpDfsConfig>(
        "cpu.omp_dfs",
        "cpu.dfs over OpenMP threads: subtrees below a fixed depth as dynamic tasks, shared "
        "atomic bound")
        .param("threads", &OmpDfsConfig::threads, dpgpu::between(0, 1024),
               "OpenMP threads; 0: OpenMP's default (all cores)")
        .param("split_depth", &OmpDfsConfig::split_depth, dpgpu::between(1, 62),
               "cities fixed after city 0 before subtrees become tasks")
        .counter("threads", dpgpu::CounterKind::Count, "OpenMP threads the solve ran on", "threads")
        .memory([](const tsp::Instance& x, const OmpDfsConfig& c) {
          return dpgpu::MemoryNeed{search_bytes(x, c.split_depth), 0};
        })
        .solve([](const tsp::Instance& x, const OmpDfsConfig& c, Context& ctx) {
          const auto bound = bound_for(x, c.initial_ub);
          ctx.set("threads", c.threads > 0 ? c.threads : omp_get_max_threads());
          return searched(ctx, "cpu.omp_dfs", bound, [&] {
            return tsp::cpu::omp_dfs(x, bound, c.threads, c.split_depth,
                                     [&ctx] { ctx.check_deadline(); });
          });
        });

}  // namespace
}  // namespace tsp::cpu
