// pipeline_register.cpp — registers the pipeline strategy's solvers: gpu.pipeline (for sdp and
// for knapsack), gpu.pipeline2x2, gpu.prefix, gpu.inner_parallel. Host C++ only, so CPU-only
// builds list them (as unavailable) and check experiment files that name them.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "pipeline_config.hpp"
#include "sdp/sdp.hpp"
#if DPGPU_WITH_CUDA
#include "pipeline_solvers.hpp"
#endif

namespace dpgpu::pipeline {
namespace {

PipelineConfig config_from(const Params& p) {
  PipelineConfig c;
  c.p = p.integer("p");
  c.sync = p.text("sync");
  c.block = int(p.integer("block"));
  c.blocks = p.integer("blocks");
  return c;
}

template <class P>
SolverBuilder<P> pipeline_solver(const char* help) {
  const PipelineConfig d;
  return dpgpu::solver<P>("gpu.pipeline", help)
      .param("p", d.p, at_least(0), "fold: p·k element-stages per step; 0: the largest the correctness condition allows")
      .choice("sync", d.sync, {"block", "grid", "launch"},
              "how a step waits for the previous one: one block's barrier (p·k <= 1024), a cooperative grid "
              "barrier, or one kernel launch per step")
      .param("block", std::int64_t{d.block}, between(32, 1024), "threads per block (grid, launch), a multiple of 32")
      .param("blocks", d.blocks, at_least(0), "sync grid: blocks of the persistent kernel; 0: one per SM");
}

#if DPGPU_WITH_CUDA
Outcome<sdp::Solution> sdp_outcome(const SdpGpuResult& r) {
  Outcome<sdp::Solution> o;
  o.objective = Objective(r.objective);
  o.checksum = r.checksum;
  o.solution = sdp::Solution{r.checksum};
  return o;
}
#endif

MemoryNeed sdp_memory(const sdp::Instance& x, const Params&) { return {std::uint64_t(x.a0()) * 8, sdp_device_bytes(x)}; }

const char* kSdpPipelineHelp =
    "the p-fold pipeline of paper 001 (Figure 6): p·k threads, one barrier per step, ceil((n-a0)/p)+k-1 steps";
const char* kKnapsackPipelineHelp =
    "knapsack as S-DP (paper 001, section 4.3): the table row by row, offsets C+1 and C+1+w, p-fold pipeline";

#if DPGPU_WITH_CUDA
[[maybe_unused]] const Registered sdp_pipeline_registered =
    pipeline_solver<sdp::Problem>(kSdpPipelineHelp).memory(sdp_memory).solve([](const sdp::Instance& x, const Params& p, Context& ctx) {
      return sdp_outcome(sdp_pipeline(x, config_from(p), ctx));
    });
[[maybe_unused]] const Registered knapsack_pipeline_registered =
    pipeline_solver<knapsack::Problem>(kKnapsackPipelineHelp)
        .memory([](const knapsack::Instance& x, const Params&) {
          return MemoryNeed{std::uint64_t(x.size()) * 16, knapsack_device_bytes(x)};
        })
        .solve([](const knapsack::Instance& x, const Params& p, Context& ctx) {
          KnapsackPipelineResult r = knapsack_pipeline(x, config_from(p), ctx);
          Outcome<knapsack::Solution> o;
          o.objective = r.value;
          o.solution = knapsack::Solution{std::move(r.items)};
          return o;
        });
[[maybe_unused]] const Registered twobytwo_registered =
    dpgpu::solver<sdp::Problem>("gpu.pipeline2x2",
                                "the 2-by-2 pipeline: ceil(k/2) threads each applying two stages per step, no read "
                                "conflicts on consecutive offsets")
        .memory(sdp_memory)
        .solve([](const sdp::Instance& x, const Params&, Context& ctx) { return sdp_outcome(sdp_pipeline2x2(x, ctx)); });
[[maybe_unused]] const Registered prefix_registered =
    dpgpu::solver<sdp::Problem>("gpu.prefix", "one block; per element a tournament over its k terms (O(n log k) steps)")
        .memory(sdp_memory)
        .solve([](const sdp::Instance& x, const Params&, Context& ctx) { return sdp_outcome(sdp_prefix(x, ctx)); });
[[maybe_unused]] const Registered inner_registered =
    dpgpu::solver<sdp::Problem>("gpu.inner_parallel",
                                "the naive parallel inner loop: k threads combine into ST[i] with atomics (O(nk))")
        .memory(sdp_memory)
        .solve([](const sdp::Instance& x, const Params&, Context& ctx) { return sdp_outcome(sdp_inner_parallel(x, ctx)); });
#else
[[maybe_unused]] const Registered sdp_pipeline_registered =
    pipeline_solver<sdp::Problem>(kSdpPipelineHelp).memory(sdp_memory).unavailable("dpgpu was built without CUDA");
[[maybe_unused]] const Registered knapsack_pipeline_registered =
    pipeline_solver<knapsack::Problem>(kKnapsackPipelineHelp).unavailable("dpgpu was built without CUDA");
[[maybe_unused]] const Registered twobytwo_registered =
    dpgpu::solver<sdp::Problem>("gpu.pipeline2x2", "the 2-by-2 pipeline").unavailable("dpgpu was built without CUDA");
[[maybe_unused]] const Registered prefix_registered =
    dpgpu::solver<sdp::Problem>("gpu.prefix", "per-element tournament").unavailable("dpgpu was built without CUDA");
[[maybe_unused]] const Registered inner_registered =
    dpgpu::solver<sdp::Problem>("gpu.inner_parallel", "naive parallel inner loop").unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::pipeline
