// bitlcs_params.cpp — registers gpu.bitparallel for LCS: each parameter bound to its
// BitLcsConfig field, the rule the kernel needs (why_invalid: word sizes it has), the memory
// estimate and the GPU solve. Host C++ only, so CPU-only builds list it (as unavailable) and
// check experiment files that name it.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "bitlcs_config.hpp"
#include "bitlcs_counters.hpp"
#include "bitlcs_gpu.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"

namespace dpgpu::bitlcs {
namespace {

using C = BitLcsConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<lcs::Problem, C>(
        "gpu.bitparallel",
        "bit-vector LCS (Allison-Dix/Hyyro), 64 cells per word op: warps own stripes of words, "
        "carries "
        "pass between stripes as a diagonal wavefront; reconstruct: Hirschberg over the passes")
        .param(
            "word_bits", &C::word_bits, between(32, 64),
            "bits of a lane word, 32 or 64 (32: twice the lanes, a shorter carry chain per word)")
        .param("words_per_thread", &C::words_per_thread, between(1, 4),
               "lane words per lane (1, 2 or 4); a warp's stripe is 32x that many words")
        .param("warps", &C::warps, between(1, 32), "warps per block, each an independent stripe")
        .param("reconstruct", &C::reconstruct,
               "also return an LCS string (linear space: Hirschberg over bit-parallel passes)")
        .param("leaf_rows", &C::leaf_rows, between(1, 1 << 20),
               "reconstruct: subproblems of at most this many rows store V per row and are traced "
               "back on the host")
        .param(
            "gpus", &C::gpus, between(1, 64),
            "GPUs one instance is split over (stripes of the bit vector per GPU, rows pipelined; "
            "logical GPU i runs on device i % visible devices)")
        .param("windowed", &C::windowed,
               "with gpus 1 too: run each pass as skewed row launches, the multi-GPU schedule (for "
               "comparison)")
        .param("exchange_rows", &C::exchange_rows, at_least(0),
               "gpus > 1: rows per launch and per carry exchange between GPUs (0: about m / (64 "
               "gpus))")
        .param("spin_ns", &C::spin_ns, between(0, 100000),
               "nanoseconds a warp waiting for the carry word of the stripe below sleeps between "
               "polls (0: spins; issue 37's variant for large n)")
        .param("carry_ring", &C::carry_ring,
               "one GPU: each stripe's carry words in a ring of 64 slots with back-pressure "
               "instead of one slot per 32 rows (used when all stripes are resident at once)")
        .check([](const C& c) { return refusal(why_invalid(c)); })
        .counters(bitlcs_counters())
        .memory([](const lcs::Instance& x, const C& c) {
          const std::int64_t n = std::int64_t(std::max(x.a.size(), x.b.size()));
          const std::int64_t m = std::int64_t(std::min(x.a.size(), x.b.size()));
          return MemoryNeed{host_bytes(n, m, c), device_bytes(n, m, c)};
        })
        .solve_gpu([](const lcs::Instance& x, const C& c, Context& ctx) {
          Outcome<lcs::Solution> out;
          BitLcsResult r = solve(x.a, x.b, c, ctx);
          out.objective = r.length;
          if (r.subsequence) out.solution = lcs::Solution{std::move(*r.subsequence)};
          return out;
        });

}  // namespace
}  // namespace dpgpu::bitlcs
