// pipeline_solvers.hpp — plain C++ entry points of the pipeline strategy's GPU solvers (the
// registration and the tests call these; CUDA stays in the .cu files). All work on
// ctx.stream(), phases "alloc", "h2d", "compute", "d2h"; errors: InputError (parameters,
// bounds), OutOfMemory, runtime_error (CUDA).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpgpu/context.hpp"
#include "knapsack/knapsack.hpp"
#include "sdp/pipeline_bounds.hpp"
#include "pipeline_config.hpp"
#include "sdp/sdp.hpp"

namespace dpgpu::pipeline {

struct SdpGpuResult {
  std::uint64_t objective = 0, checksum = 0;
};

// The p-fold pipeline (Figure 6). Counters: p, max_p, k, steps, paper_steps, threads (p·k),
// blocks, block, per_thread, kernel_launches, step_ns (compute time per step), cell_bits.
SdpGpuResult sdp_pipeline(const sdp::Instance& x, const PipelineConfig& cfg, Context& ctx);
// The 2-by-2 pipeline: ceil(k/2) threads in one block, two stages per thread and step.
SdpGpuResult sdp_pipeline2x2(const sdp::Instance& x, Context& ctx);
// One block of k threads per element, a tournament of ceil(log2 k) rounds.
SdpGpuResult sdp_prefix(const sdp::Instance& x, Context& ctx);
// One block of k threads per element, all combining into ST[i] with atomics.
SdpGpuResult sdp_inner_parallel(const sdp::Instance& x, Context& ctx);

// gpu.pipeline's GPU rule (check_device): with sync grid, every block of the persistent
// kernel must be co-resident on this GPU for the fold the solve would run. Why not, or nullopt.
std::optional<std::string> sdp_grid_rule(const sdp::Instance& x, const PipelineConfig& cfg);
std::optional<std::string> knapsack_grid_rule(const knapsack::Instance& x,
                                              const PipelineConfig& cfg);

struct KnapsackPipelineResult {
  std::int64_t value = 0;
  std::vector<std::int32_t> items;  // chosen items, ascending
};
// Knapsack through S-DP (section 4.3): the whole table on the device, traced back there.
// Counters as sdp_pipeline, plus rows and width (C + 1).
KnapsackPipelineResult knapsack_pipeline(const knapsack::Instance& x, const PipelineConfig& cfg,
                                         Context& ctx);

}  // namespace dpgpu::pipeline
