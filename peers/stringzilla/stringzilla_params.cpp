// peer.stringzilla (StringZilla's CUDA backend) and peer.stringzilla_cpu (its CPU backend) for
// edit_batch and edit. The row's time is the library call alone, measured in the worker and
// handed to the harness as counter external_time_s (measure.hpp, apply_external_time); the
// harness's time of the whole solve is kept as counter measured_s.
#include <fmt/format.h>

#include "dpgpu/registry.hpp"
#include "edit/batch.hpp"
#include "edit/edit.hpp"
#include "worker.hpp"

#ifndef DPGPU_SZ_WHY
#define DPGPU_SZ_WHY "not probed"
#endif

namespace peers::stringzilla {
namespace {

using dpgpu::Context;
using dpgpu::MemoryNeed;

struct Config {
  int threads = 0;  // CPU backend: cores (0: all)
  int block = 1;    // independent pairs per library call
};

const std::vector<dpgpu::CounterSpec>& counter_specs() {
  namespace c = dpgpu::counters;
  static const std::vector<dpgpu::CounterSpec> specs{
      c::count("library_calls", "calls", "engine calls (1 per cross batch, 1 per block of pairs)"),
      c::count("library_cells", "cells",
               "cells the calls computed (a block's whole cross product)"),
      c::seconds("load_s", "building the strings in the worker (untimed; the run that sent them)"),
  };
  return specs;
}

// The library's run on x: its distances, its time as the solve's, what it did as counters.
std::vector<std::int32_t> run_library(const edit::BatchInstance& x, const RunRequest& r,
                                      Context& ctx) {
  RunResult out;
  try {
    out = shared_worker().run(x, r);
  } catch (...) {
    reset_shared_worker();  // its pipes may be mid-message: a fresh one next time
    throw;
  }
  ctx.set("external_time_s", out.library_s);  // the row's time (the harness's counter)
  ctx.set("library_calls", double(out.calls));
  ctx.set("library_cells", out.cells);
  ctx.set("load_s", out.load_s);
  return std::move(out.distances);
}

RunRequest request(const Config& c, const Context& ctx, bool gpu) {
  return RunRequest{gpu, gpu ? std::max(ctx.device(), 0) : c.threads, c.block};
}

// What the worker holds: the strings about three times (bytes, the Strs, the pipe), a Python
// object per string, the result matrix (uint64 per computed pair); on the GPU the strings and
// the result.
MemoryNeed memory_of(const edit::BatchInstance& x, const Config& c, bool gpu) {
  const double text = double(x.a.text.size() + x.b.text.size());
  const double strings = double(x.a.size() + x.b.size());
  const double computed = x.cross ? double(x.pairs()) : double(x.pairs()) * c.block;
  const double host = 4 * text + 120 * strings + 12 * computed + double(1 << 26);
  const double device = gpu ? text + 8 * strings + 8 * computed : 0;
  return MemoryNeed{std::uint64_t(host), std::uint64_t(device)};
}

dpgpu::Outcome<edit::BatchSolution> batch_outcome(std::vector<std::int32_t> d) {
  std::int64_t sum = 0;
  for (const auto v : d) sum += v;
  const auto checksum = edit::batch_checksum(d);
  return {sum, edit::BatchSolution{std::move(d)}, checksum};
}

// edit: the pair as a batch of one, kept between runs so that the worker is sent it once.
const edit::BatchInstance& as_batch(const edit::Instance& x) {
  static edit::BatchInstance one;
  if (one.a.size() != 1 || one.a[0] != x.a || one.b[0] != x.b) {
    one = edit::BatchInstance{};
    one.a.push_back(x.a);
    one.b.push_back(x.b);
  }
  return one;
}

constexpr const char* kTimes =
    "; the time is the library call alone, timed in a Python worker (strings built untimed), "
    "the whole solve is counter measured_s";

template <class P>
auto builder(const char* name, const char* help, bool gpu) {
  auto b = dpgpu::solver<P, Config>(name, fmt::format("{}{}", help, kTimes));
  if (!gpu)
    b.param("threads", &Config::threads, dpgpu::between(0, 1024),
            "CPU cores for StringZilla (DeviceScope(cpu_cores)); 0: all");
  if constexpr (std::is_same_v<P, edit::BatchProblem>)
    b.param("block", &Config::block, dpgpu::between(1, 65536),
            "independent pairs per call: StringZilla computes cross products only, so a block "
            "of k pairs costs k x k pairs, of which the k on the diagonal are kept; cross "
            "batches: one call");
  return b.counters(counter_specs());
}

#if !DPGPU_WITH_STRINGZILLA
constexpr const char* kAbsent =
    "StringZilla is not importable (" DPGPU_SZ_WHY
    "); install it (pip install stringzilla==5.3.2 stringzillas-cpus==5.3.2, or "
    "stringzillas-cuda==5.3.2 for the GPU; scripts/install-deps.sh --test), then re-run cmake";
#endif

template <class P>
auto cpu_builder(const char* help) {
  return builder<P>("peer.stringzilla_cpu", help, false);
}
template <class P>
auto gpu_builder(const char* help) {
  return builder<P>("peer.stringzilla", help, true).backend(dpgpu::Backend::Gpu);
}
constexpr const char* kBatchCpu = "StringZilla's CPU backend (stringzillas): every pair's distance";
constexpr const char* kBatchGpu = "StringZilla's CUDA backend (stringzillas-cuda), a warp per pair";
constexpr const char* kPairCpu = "StringZilla's CPU backend on the one pair (a 1 x 1 call)";
constexpr const char* kPairGpu = "StringZilla's CUDA backend on the one pair (a 1 x 1 call)";

dpgpu::Outcome<edit::Solution> pair_outcome(const std::vector<std::int32_t>& d) {
  return {d.at(0), std::nullopt, std::nullopt};
}

#if DPGPU_WITH_STRINGZILLA
[[maybe_unused]] const auto registered_cpu_batch =
    cpu_builder<edit::BatchProblem>(kBatchCpu)
        .memory(
            [](const edit::BatchInstance& x, const Config& c) { return memory_of(x, c, false); })
        .solve([](const edit::BatchInstance& x, const Config& c, Context& ctx) {
          return batch_outcome(run_library(x, request(c, ctx, false), ctx));
        });
[[maybe_unused]] const auto registered_cpu_pair = cpu_builder<edit::Problem>(kPairCpu).solve(
    [](const edit::Instance& x, const Config& c, Context& ctx) {
      return pair_outcome(run_library(as_batch(x), request(c, ctx, false), ctx));
    });
#if DPGPU_SZ_CUDA
[[maybe_unused]] const auto registered_gpu_batch =
    gpu_builder<edit::BatchProblem>(kBatchGpu)
        .memory([](const edit::BatchInstance& x, const Config& c) { return memory_of(x, c, true); })
        .solve_gpu([](const edit::BatchInstance& x, const Config& c, Context& ctx) {
          return batch_outcome(run_library(x, request(c, ctx, true), ctx));
        });
[[maybe_unused]] const auto registered_gpu_pair = gpu_builder<edit::Problem>(kPairGpu).solve_gpu(
    [](const edit::Instance& x, const Config& c, Context& ctx) {
      return pair_outcome(run_library(as_batch(x), request(c, ctx, true), ctx));
    });
#else
constexpr const char* kNoCuda =
    "the stringzillas module found at configure time has no CUDA backend (install "
    "stringzillas-cuda==5.3.2 instead of stringzillas-cpus, then re-run cmake)";
[[maybe_unused]] const auto registered_gpu_batch =
    gpu_builder<edit::BatchProblem>(kBatchGpu).unavailable(kNoCuda);
[[maybe_unused]] const auto registered_gpu_pair =
    gpu_builder<edit::Problem>(kPairGpu).unavailable(kNoCuda);
#endif
#else
[[maybe_unused]] const auto registered_cpu_batch =
    cpu_builder<edit::BatchProblem>(kBatchCpu).unavailable(kAbsent);
[[maybe_unused]] const auto registered_cpu_pair =
    cpu_builder<edit::Problem>(kPairCpu).unavailable(kAbsent);
[[maybe_unused]] const auto registered_gpu_batch =
    gpu_builder<edit::BatchProblem>(kBatchGpu).unavailable(kAbsent);
[[maybe_unused]] const auto registered_gpu_pair =
    gpu_builder<edit::Problem>(kPairGpu).unavailable(kAbsent);
#endif

}  // namespace
}  // namespace peers::stringzilla
