// cpu.chowdhury as the harness sees it.
#include <omp.h>

#include <algorithm>

#include "dpgpu/registry.hpp"
#include "lcs/chowdhury.hpp"
#include "lcs/lcs.hpp"

namespace {

using dpgpu::Context;
using dpgpu::Params;

// Scores of the top-level boundary (n + m) plus the retrace's copies (at most 1.5 (h + w) a
// level, halving): 4 (n + m) (1 + 3) bytes, the decision table and the string.
std::uint64_t scratch_bound(const lcs::Instance& x, std::uint64_t cutoff) {
  const std::uint64_t n = x.a.size(), m = x.b.size();
  return 16 * (n + m) + cutoff * cutoff + std::min(n, m);
}

lcs::chowdhury::Options options_of(const Params& p) {
  lcs::chowdhury::Options o;
  o.cutoff = std::size_t(p.integer("cutoff"));
  o.threads = int(p.integer("threads"));
  if (o.threads == 0) o.threads = omp_get_max_threads();
  o.task_min_side = std::max<std::size_t>(2 * o.cutoff, std::size_t(p.integer("task_min_side")));
  return o;
}

[[maybe_unused]] const auto registered_chowdhury =
    dpgpu::solver<lcs::Problem>("cpu.chowdhury",
                                "Chowdhury-Ramachandran cache-oblivious recursion: linear space, with certificate")
        .param("cutoff", std::int64_t{256}, dpgpu::between(1, 1 << 14),
               "regions with both sides <= cutoff are solved by the two-row DP (SIMPLE-LCS)")
        .param("threads", std::int64_t{1}, dpgpu::between(0, 1024),
               "1: the single-processor method; > 1: OpenMP tasks over Q12 || Q21; 0: all cores")
        .param("task_min_side", std::int64_t{4096}, dpgpu::between(1, 1 << 30),
               "regions with a smaller longest side are not split into tasks")
        .memory([](const lcs::Instance& x, const Params& p) {
          return dpgpu::MemoryNeed{scratch_bound(x, std::uint64_t(p.integer("cutoff"))), 0};
        })
        .solve([](const lcs::Instance& x, const Params& p, Context& ctx) {
          const auto o = options_of(p);
          ctx.set("threads", o.threads);
          lcs::chowdhury::Result r;
          {
            auto compute = ctx.phase("compute");
            r = lcs::cpu::chowdhury(x.a, x.b, o, [&ctx] { ctx.check_deadline(); });
          }
          ctx.set("peak_host_bytes", double(r.peak_scratch_bytes));
          ctx.set("cpu_cells", double(r.cpu_cells));
          const auto length = static_cast<dpgpu::Objective>(r.subsequence.size());
          return dpgpu::Outcome<lcs::Solution>{length, lcs::Solution{std::move(r.subsequence)}, std::nullopt};
        });

}  // namespace
