// pipeline_params.cpp — registers the pipeline strategy's solvers: gpu.pipeline (for sdp and
// for knapsack, each parameter bound to its PipelineConfig field), gpu.pipeline2x2,
// gpu.prefix, gpu.inner_parallel. Host C++ only, so CPU-only builds list them (as
// unavailable, with the same help) and check experiment files that name them.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "pipeline_config.hpp"
#include "pipeline_counters.hpp"
#include "pipeline_solvers.hpp"
#include "sdp/sdp.hpp"

namespace dpgpu::pipeline {
namespace {

template <class P>
SolverBuilder<P, PipelineConfig> pipeline_solver(const char* help) {
  using C = PipelineConfig;
  return dpgpu::solver<P, C>("gpu.pipeline", help)
      .param("p", &C::p, at_least(0),
             "fold: p·k element-stages per step; 0: the largest the correctness condition allows")
      .choice("sync", &C::sync, {"block", "grid", "launch"},
              "how a step waits for the previous one: one block's barrier (p·k <= 1024), a "
              "cooperative grid "
              "barrier, or one kernel launch per step")
      .param("block", &C::block, between(32, 1024),
             "threads per block (grid, launch), a multiple of 32")
      .rule("block", multiple_of(32))
      .param("blocks", &C::blocks, at_least(0),
             "sync grid: blocks of the persistent kernel; 0: one per SM")
      .check([](const C& c) { return refusal_of([&] { validate(c, "gpu.pipeline"); }); });
}

// The correctness bound on p (and what one block holds, sync block), declared per problem.
std::optional<std::string> sdp_rule(const PipelineConfig& c, const sdp::Instance& x) {
  if (auto why = refusal_of([&] { check_sdp_instance(x, "gpu.pipeline"); })) return why;
  return fold_refusal(c.p, max_fold(x.offsets), x.k(), c.sync, sdp_bound_reason());
}

std::optional<std::string> knapsack_rule(const PipelineConfig& c, const knapsack::Instance& x) {
  if (x.capacity > kMaxDeviceCapacity)
    return "capacity " + std::to_string(x.capacity) + " exceeds 2^31 - 2 (32-bit device weights)";
  return fold_refusal(c.p, knapsack_max_fold(x), 2, c.sync, knapsack_bound_reason());
}

Outcome<sdp::Solution> sdp_outcome(const SdpGpuResult& r) {
  Outcome<sdp::Solution> o;
  o.objective = Objective(r.objective);
  o.checksum = r.checksum;
  o.solution = sdp::Solution{r.checksum};
  return o;
}

MemoryNeed sdp_memory(const sdp::Instance& x, const Params&) {
  return {std::uint64_t(x.a0()) * 8, sdp_device_bytes(x)};
}

[[maybe_unused]] const Registered sdp_pipeline_registered =
    pipeline_solver<sdp::Problem>(
        "the p-fold pipeline of paper 001 (Figure 6): p·k threads, one barrier per step, "
        "ceil((n-a0)/p)+k-1 steps")
        .check_instance(sdp_rule)
        .counters(sdp_counters())
        .counters(fold_counters())
        .check_device(
            [](const PipelineConfig& c, const sdp::Instance& x) { return sdp_grid_rule(x, c); })
        .memory(sdp_memory)
        .solve_gpu([](const sdp::Instance& x, const PipelineConfig& c, Context& ctx) {
          return sdp_outcome(sdp_pipeline(x, c, ctx));
        });

[[maybe_unused]] const Registered knapsack_pipeline_registered =
    pipeline_solver<knapsack::Problem>(
        "knapsack as S-DP (paper 001, section 4.3): the table row by row, offsets C+1 and C+1+w, "
        "p-fold pipeline")
        .check_instance(knapsack_rule)
        .counters(sdp_counters())
        .counters(fold_counters())
        .counters(knapsack_table_counters())
        .check_device([](const PipelineConfig& c, const knapsack::Instance& x) {
          return knapsack_grid_rule(x, c);
        })
        .memory([](const knapsack::Instance& x, const Params&) {
          return MemoryNeed{std::uint64_t(x.size()) * 16, knapsack_device_bytes(x)};
        })
        .solve_gpu([](const knapsack::Instance& x, const PipelineConfig& c, Context& ctx) {
          KnapsackPipelineResult r = knapsack_pipeline(x, c, ctx);
          Outcome<knapsack::Solution> o;
          o.objective = r.value;
          o.solution = knapsack::Solution{std::move(r.items)};
          return o;
        });

// What the one-block solvers hold: gpu.pipeline2x2 ceil(k/2) threads (and its condition on
// the offsets), gpu.prefix and gpu.inner_parallel k threads.
std::optional<std::string> twobytwo_rule(const Params&, const sdp::Instance& x) {
  if (auto why = refusal_of([&] { check_sdp_instance(x, "gpu.pipeline2x2"); })) return why;
  if (auto why = why_not_2x2(x.offsets); !why.empty()) return why;
  if ((x.k() + 1) / 2 > kBlockLimit)
    return "ceil(k/2) = " + std::to_string((x.k() + 1) / 2) +
           " threads exceed one block (k <= 2048)";
  return std::nullopt;
}

std::optional<std::string> per_element_rule(const Params&, const sdp::Instance& x) {
  if (auto why = refusal_of([&] { check_sdp_instance(x, "this solver"); })) return why;
  if (x.k() > kBlockLimit)
    return "k = " + std::to_string(x.k()) + " threads exceed one block (k <= 1024)";
  return std::nullopt;
}

[[maybe_unused]] const Registered twobytwo_registered =
    dpgpu::solver<sdp::Problem>(
        "gpu.pipeline2x2",
        "the 2-by-2 pipeline: ceil(k/2) threads each applying two stages per step, no read "
        "conflicts on consecutive offsets")
        .check_instance(twobytwo_rule)
        .counters(sdp_counters())
        .counters(fold_2x2_counters())
        .memory(sdp_memory)
        .solve_gpu([](const sdp::Instance& x, const Params&, Context& ctx) {
          return sdp_outcome(sdp_pipeline2x2(x, ctx));
        });

[[maybe_unused]] const Registered prefix_registered =
    dpgpu::solver<sdp::Problem>(
        "gpu.prefix", "one block; per element a tournament over its k terms (O(n log k) steps)")
        .check_instance(per_element_rule)
        .counters(sdp_counters())
        .memory(sdp_memory)
        .solve_gpu([](const sdp::Instance& x, const Params&, Context& ctx) {
          return sdp_outcome(sdp_prefix(x, ctx));
        });

[[maybe_unused]] const Registered inner_registered =
    dpgpu::solver<sdp::Problem>(
        "gpu.inner_parallel",
        "the naive parallel inner loop: k threads combine into ST[i] with atomics (O(nk))")
        .check_instance(per_element_rule)
        .counters(sdp_counters())
        .memory(sdp_memory)
        .solve_gpu([](const sdp::Instance& x, const Params&, Context& ctx) {
          return sdp_outcome(sdp_inner_parallel(x, ctx));
        });

}  // namespace
}  // namespace dpgpu::pipeline
