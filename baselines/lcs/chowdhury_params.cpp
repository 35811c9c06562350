// cpu.chowdhury as the harness sees it (the algorithm: chowdhury.cpp).
#include <omp.h>

#include <algorithm>

#include "dpgpu/registry.hpp"
#include "lcs/chowdhury.hpp"
#include "lcs/lcs.hpp"

namespace {

using dpgpu::Context;

// Scores of the top-level boundary (n + m) plus the retrace's copies (at most 1.5 (h + w) a
// level, halving): 4 (n + m) (1 + 3) bytes, the decision table and the string.
std::uint64_t scratch_bound(const lcs::Instance& x, std::uint64_t cutoff) {
  const std::uint64_t n = x.a.size(), m = x.b.size();
  return 16 * (n + m) + cutoff * cutoff + std::min(n, m);
}

struct ChowdhuryConfig {
  int cutoff = 256;  // regions with both sides <= cutoff: SIMPLE-LCS
  int threads = 1;   // 1: the single-processor method; > 1: OpenMP tasks; 0: all cores
  std::int64_t task_min_side =
      4096;  // regions with a smaller longest side are not split into tasks
};

lcs::chowdhury::Options options_of(const ChowdhuryConfig& c) {
  lcs::chowdhury::Options o;
  o.cutoff = std::size_t(c.cutoff);
  o.threads = c.threads == 0 ? omp_get_max_threads() : c.threads;
  o.task_min_side = std::max<std::size_t>(2 * o.cutoff, std::size_t(c.task_min_side));
  return o;
}

using C = ChowdhuryConfig;

[[maybe_unused]] const auto registered_chowdhury =
    dpgpu::solver<lcs::Problem, C>(
        "cpu.chowdhury",
        "Chowdhury-Ramachandran cache-oblivious recursion: linear space, with certificate")
        .param("cutoff", &C::cutoff, dpgpu::between(1, 1 << 14),
               "regions with both sides <= cutoff are solved by the two-row DP (SIMPLE-LCS)")
        .param("threads", &C::threads, dpgpu::between(0, 1024),
               "1: the single-processor method; > 1: OpenMP tasks over Q12 || Q21; 0: all cores")
        .param("task_min_side", &C::task_min_side, dpgpu::between(1, 1 << 30),
               "regions with a smaller longest side are not split into tasks (at least 2 cutoff)")
        .counter("threads", dpgpu::CounterKind::Count, "OpenMP threads the solve ran on", "threads")
        .counter("peak_host_bytes", dpgpu::CounterKind::Bytes,
                 "most scratch the recursion held at once")
        .counter("cpu_cells", dpgpu::CounterKind::Count, "cells the two-row DP computed", "cells")
        .memory([](const lcs::Instance& x, const C& c) {
          return dpgpu::MemoryNeed{scratch_bound(x, std::uint64_t(c.cutoff)), 0};
        })
        .solve([](const lcs::Instance& x, const C& c, Context& ctx) {
          const auto o = options_of(c);
          ctx.set("threads", o.threads);
          lcs::chowdhury::Result r;
          {
            auto compute = ctx.phase("compute");
            r = lcs::cpu::chowdhury(x.a, x.b, o, [&ctx] { ctx.check_deadline(); });
          }
          ctx.set("peak_host_bytes", double(r.peak_scratch_bytes));
          ctx.set("cpu_cells", double(r.cpu_cells));
          const auto length = static_cast<dpgpu::Objective>(r.subsequence.size());
          return dpgpu::Outcome<lcs::Solution>{length, lcs::Solution{std::move(r.subsequence)},
                                               std::nullopt};
        });

}  // namespace
