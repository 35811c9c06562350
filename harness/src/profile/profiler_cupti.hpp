// profiler_cupti.hpp — the paper's profiler metrics inside the worker, through CUPTI's range
// profiler (CUDA 13): after the timed solves the case is solved once more, and every sampled
// ctx.profiled_launch() mark sits between a range-profiler Start and Stop. Each kernel in
// it is an auto range, replayed kernel by kernel until every counter pass is read, and
// evaluated under the Hopper metric names ncu reads (DESIGN.md), so metrics.csv has the
// same columns and meaning as with ncu, without ncu's start-up or a second process.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "records/case_result.hpp"
#include "records/case_spec.hpp"

namespace dpgpu {

// True when dpgpu was built with CUPTI (DPGPU_WITH_CUPTI); otherwise the runner uses ncu.
bool cupti_built();

// Host side, no GPU needed: the metrics CUPTI's list for `chip` (an H100 is "GH100") does
// not know, each with why, or empty when it knows them all (or when built without CUPTI).
std::vector<std::string> cupti_unknown_metrics(const std::vector<std::string>& metrics,
                                               const std::string& chip = "GH100");

// CUPTI's name for a unit, written as ncu writes it ("percent" → "%", "instruction/gpc_cycle"
// → "inst/cycle"), so both backends' metrics.csv agree.
std::string ncu_unit(const std::string& cupti_unit);

// Starts loading CUPTI's host library on a thread of its own (the worker, as soon as it
// knows the case will be profiled); cupti_preload_wait() joins it before the timed solves
// and returns how long it waited (a cost of profiling, never overlapping a timed solve).
void cupti_preload_start();
double cupti_preload_wait();

// One solve in which every `stride`-th marked launch goes to `sink` (stride 0: no mark does).
// Returns empty when the solve was right, else why not.
using ProfiledSolve = std::function<std::string(LaunchMarkSink* sink, std::uint64_t stride)>;

// Profiles `solve` on the current CUDA context, solving once per counter pass (user ranges,
// user replay: one range per sampled mark, the L2 and instruction caches emptied before each
// when the request says so (CacheFlush), as ncu's --cache-control all); a solver that marks
// nothing is profiled kernel by kernel in one solve (auto ranges, kernel replay). `kernel_launches` and `marked_launches` come
// from a timed solve's counters and choose the sample (plan_profile): every k-th marked
// launch, or the whole solve for a solver that marks none. `unavailable` in the result says
// CUPTI could not work here for a reason ncu might not share (the runner then uses ncu);
// no permission to read counters is an error with its fix, not a fall-back.
ProfileRecord profile_with_cupti(const ProfileRequest& request, double kernel_launches,
                                 double marked_launches, const ProfiledSolve& solve);

}  // namespace dpgpu
