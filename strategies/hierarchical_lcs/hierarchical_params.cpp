// hierarchical_params.cpp — registers gpu.hierarchical: each parameter bound to its
// HierarchicalConfig field, the rules between them (validate(): sub, grid a multiple of sub,
// threads per block, gpu_cutoff >= cutoff) that `dpgpu check` applies without a GPU, the rule
// the GPU itself sets (a block's shared memory, asked where a GPU is usable), the memory
// estimate and the GPU solve. Host C++ only, so CPU-only builds list it as unavailable.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "dpgpu/registry.hpp"
#include "hierarchical_config.hpp"
#include "hierarchical_counters.hpp"
#include "hierarchical_lcs.hpp"
#include "lcs/lcs.hpp"

namespace dpgpu::hierarchical {
namespace {

using C = HierarchicalConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<lcs::Problem, C>(
        "gpu.hierarchical",
        "paper 003: Chowdhury-Ramachandran recursion on the CPU, regions up to gpu_cutoff on the "
        "GPU (level 1: diagonals of grid x grid blocks; level 2: sub x sub sub-blocks per thread "
        "in shared memory; level 3: registers); linear space, with certificate")
        .param("cutoff", &C::cutoff, between(1, 1 << 14),
               "regions with both sides <= cutoff: two-row DP on the CPU (SIMPLE-LCS)")
        .param("gpu_cutoff", &C::gpu_cutoff, between(1, std::int64_t{1} << 24),
               "regions whose longest side is <= gpu_cutoff (and not both <= cutoff) go to the "
               "GPU; at least cutoff")
        .param("grid", &C::grid, between(2, 16384),
               "GPU level 1: side of a block in cells (the paper's m = 512); a multiple of sub, "
               "grid / sub threads per CUDA block (at most 1024)")
        .param("sub", &C::sub, between(2, 16),
               "GPU levels 2-3: side of a thread's sub-block: 2, 4, 8 or 16")
        .check([](const C& c) { return refusal(validate(c)); })
        .check_device([](const C& c, const ValueMap&) { return refusal(why_not_on_this_gpu(c)); })
        .counters(hierarchical_counters())
        .memory([](const lcs::Instance& x, const C& c) {
          const std::uint64_t n = x.a.size(), m = x.b.size(), cut = std::uint64_t(c.cutoff);
          const std::uint64_t side =
              std::min<std::uint64_t>(std::uint64_t(c.gpu_cutoff), std::max(n, m));
          return MemoryNeed{16 * (n + m) + cut * cut + std::min(n, m) + 8 * side,
                            device_bytes(n, m, c)};
        })
        .solve_gpu([](const lcs::Instance& x, const C& c, Context& ctx) {
          auto r = hierarchical_lcs(x.a, x.b, c, ctx);
          const auto& k = r.counters;
          ctx.set("gpu_subproblems", double(k.gpu_subproblems));
          ctx.set("kernel_launches", double(k.gpu_launches));
          ctx.set("level1_blocks", double(k.gpu_blocks));
          ctx.set("level2_subblocks", double(k.gpu_subblocks));
          ctx.set("level3_cells", double(k.gpu_cells));
          ctx.set("gpu_real_cells", double(k.gpu_real_cells));
          ctx.set("cpu_cells", double(k.cpu_cells));
          ctx.set("h2d_bytes", double(k.h2d_bytes));
          ctx.set("d2h_bytes", double(k.d2h_bytes));
          ctx.set("gpu_s", k.gpu_s);
          ctx.set("peak_host_bytes", double(k.peak_host_bytes));
          Outcome<lcs::Solution> out;
          out.objective = Objective(r.subsequence.size());
          out.solution = lcs::Solution{std::move(r.subsequence)};
          return out;
        });

}  // namespace
}  // namespace dpgpu::hierarchical
