// myers_params.cpp — registers gpu.myers for edit distance: each parameter bound to its
// MyersConfig field, the rule the kernel needs, the memory estimate and the GPU solve. Host
// C++ only, so CPU-only builds list it (as unavailable) and check files that name it.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "dpgpu/registry.hpp"
#include "edit/edit.hpp"
#include "myers_config.hpp"
#include "myers_counters.hpp"
#include "myers_gpu.hpp"

namespace dpgpu::myers {
namespace {

using C = MyersConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<edit::Problem, C>(
        "gpu.myers",
        "Myers/Hyyro bit-vector edit distance, 64 cells per word step: warps own stripes of "
        "words, the +1/0/-1 horizontal deltas pass between stripes as a diagonal wavefront; "
        "script: Hirschberg over the passes")
        .param("words_per_thread", &C::words_per_thread, between(1, 4),
               "64-bit words per lane (1, 2 or 4); a warp's stripe is 32x that many words")
        .param("warps", &C::warps, between(1, 32), "warps per block, each an independent stripe")
        .param("script", &C::script,
               "also return an edit script (linear space: Hirschberg over bit-vector passes)")
        .param("leaf_cells", &C::leaf_cells, between(1, double(std::int64_t{1} << 40)),
               "script: subproblems of at most this many cells are aligned on the host")
        .check([](const C& c) { return refusal(why_invalid(c)); })
        .counters(myers_counters())
        .memory([](const edit::Instance& x, const C& c) {
          const std::int64_t n = std::int64_t(std::max(x.a.size(), x.b.size()));
          const std::int64_t m = std::int64_t(std::min(x.a.size(), x.b.size()));
          const std::uint64_t host = std::uint64_t(n + m) * (c.script ? 8 : 2) +
                                     std::uint64_t(c.script ? c.leaf_cells * 8 * 2 : 0) +
                                     std::uint64_t((n + 63) / 64) * 32;
          return MemoryNeed{host, device_bytes(n, m, c)};
        })
        .solve_gpu([](const edit::Instance& x, const C& c, Context& ctx) {
          Outcome<edit::Solution> out;
          MyersResult r = solve(x.a, x.b, c, ctx);
          out.objective = r.distance;
          if (r.script) out.solution = edit::Solution{std::move(*r.script)};
          return out;
        });

}  // namespace
}  // namespace dpgpu::myers
