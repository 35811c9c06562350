// bitlcs_params.cpp — registers gpu.bitparallel for LCS: parameters, memory estimate, and (in
// CUDA builds) its solve. Host C++ only, so CPU-only builds list it as unavailable.
#include <cstdint>
#include <string>
#include <utility>

#include "bitlcs_config.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#if DPGPU_WITH_CUDA
#include "bitlcs_gpu.hpp"
#endif

namespace dpgpu::bitlcs {
namespace {

BitLcsConfig config_from(const Params& p) {
  BitLcsConfig c;
  c.word_bits = static_cast<int>(p.integer("word_bits"));
  c.words_per_thread = static_cast<int>(p.integer("words_per_thread"));
  c.warps = static_cast<int>(p.integer("warps"));
  c.reconstruct = p.flag("reconstruct");
  c.leaf_rows = p.integer("leaf_rows");
  return c;
}

SolverBuilder<lcs::Problem> bitparallel_solver() {
  const BitLcsConfig d;
  return dpgpu::solver<lcs::Problem>(
             "gpu.bitparallel",
             "bit-vector LCS (Allison-Dix/Hyyro), 64 cells per word op: warps own stripes of words, carries "
             "pass between stripes as a diagonal wavefront; reconstruct: Hirschberg over the passes")
      .param("word_bits", std::int64_t{d.word_bits}, between(32, 64),
             "bits of a lane word, 32 or 64 (32: twice the lanes, a shorter carry chain per word)")
      .param("words_per_thread", std::int64_t{d.words_per_thread}, between(1, 4),
             "lane words per lane (1, 2 or 4); a warp's stripe is 32x that many words")
      .param("warps", std::int64_t{d.warps}, between(1, 32), "warps per block, each an independent stripe")
      .param("reconstruct", d.reconstruct, "also return an LCS string (linear space: Hirschberg over bit-parallel passes)")
      .param("leaf_rows", std::int64_t{d.leaf_rows}, between(1, 1 << 20),
             "reconstruct: subproblems of at most this many rows store V per row and are traced back on the host")
      .memory([](const lcs::Instance& x, const Params& p) {
        const std::int64_t n = std::int64_t(std::max(x.a.size(), x.b.size()));
        const std::int64_t m = std::int64_t(std::min(x.a.size(), x.b.size()));
        const BitLcsConfig c = config_from(p);
        return MemoryNeed{host_bytes(n, m, c), device_bytes(n, m, c)};
      });
}

[[maybe_unused]] const Registered registered =
#if DPGPU_WITH_CUDA
    bitparallel_solver().solve([](const lcs::Instance& x, const Params& p, Context& ctx) {
      Outcome<lcs::Solution> out;
      BitLcsResult r = solve(x.a, x.b, config_from(p), ctx);
      out.objective = r.length;
      if (r.subsequence) out.solution = lcs::Solution{std::move(*r.subsequence)};
      return out;
    });
#else
    bitparallel_solver().unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::bitlcs
