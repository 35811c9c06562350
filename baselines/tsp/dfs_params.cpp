// cpu.dfs as the harness sees it (the algorithm: dfs.cpp).
#include "search_registration.hpp"

namespace tsp::cpu {
namespace {

using dpgpu::Context;

struct DfsConfig {
  std::string initial_ub = "optimal";
};

[[maybe_unused]] const auto registered_dfs =
    search_solver<DfsConfig>(
        "cpu.dfs",
        "depth-first implicit enumeration from city 0, one thread, bitset of visited cities, "
        "pruned by partial cost (paper 004's serial baseline)")
        .memory([](const tsp::Instance& x, const DfsConfig&) {
          return dpgpu::MemoryNeed{search_bytes(x, 0), 0};
        })
        .solve([](const tsp::Instance& x, const DfsConfig& c, Context& ctx) {
          const auto bound = bound_for(x, c.initial_ub);
          return searched(ctx, "cpu.dfs", bound, [&] {
            return tsp::cpu::dfs(x, bound, [&ctx] { ctx.check_deadline(); });
          });
        });

}  // namespace
}  // namespace tsp::cpu
