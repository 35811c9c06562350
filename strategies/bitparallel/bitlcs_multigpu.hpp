// bitlcs_multigpu.hpp — gpu.bitparallel with `gpus` > 1: one pass split over several GPUs
// (the plan: bitlcs_stripe_plan.hpp; the launch: bitlcs_window_kernel.cuh). Logical GPU i
// runs on device i % cudaGetDeviceCount() of those the process sees, so 2 or 4 logical GPUs
// run (and are tested) on one card.
#pragma once
#include <cstdint>
#include <memory>

#include "bitlcs_config.hpp"
#include "bitlcs_pass.hpp"
#include "dpgpu/context.hpp"

namespace dpgpu::bitlcs {

// A pass runner over c.gpus logical GPUs. A job that is not stored rows and has at least
// `min_stripes_per_gpu` stripes per GPU runs split over the GPUs (one job after another);
// the other jobs of a batch (Hirschberg's deep levels: many small passes, little of the
// work) run as one batch on logical GPU 0. Counters per logical GPU i: gpu<i>.compute_s
// (kernels), gpu<i>.peer_s (its carry copies to GPU i+1), gpu<i>.wait_s (idle between its
// launches, waiting for GPU i−1's carries), gpu<i>.fill_s (from the start to its first
// launch), gpu<i>.drain_s (from its last launch to the end of the pass); gpus.physical.
std::unique_ptr<PassRunner> make_multigpu_runner(const Symbols& s, const BitLcsConfig& c,
                                                 Context& ctx,
                                                 std::int64_t min_stripes_per_gpu = 64);

}  // namespace dpgpu::bitlcs
