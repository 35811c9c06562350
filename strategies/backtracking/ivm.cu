// ivm.cu — host driver of gpu.ivm (paper 004, Algorithm 1): the interval [0, m!) split over T
// explorers, then TreeExplore and work-stealing phases alternate until a reduction finds every
// interval empty. Everything between two phases stays on the device; the host reads one small
// struct per phase (the end test and the trigger count, as the paper copies end-all).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "backtracking.hpp"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "factoradic.hpp"
#include "interval_check.hpp"
#include "ivm_kernels.cuh"
#include "ivm_launch.cuh"
#include "ivm_multi.hpp"
#include "search_common.cuh"

namespace dpgpu::backtracking {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;
namespace K = ivm_kernel;

// One gpu.ivm solve on one GPU (Algorithm 1): its settings, device and pinned buffers, events
// and tallies, with one member per step in the order run() calls them. Members are destroyed
// in reverse order: the work-stealing graph, then the stream drained, then the buffers.
template <class Cost, class Explorer>
struct SingleSearch {
  const tsp::Instance& x;
  const IvmConfig& c;
  const std::int64_t bound;
  Context& ctx;
  const int n = x.n, m = n - 1;
  const int T = static_cast<int>(c.explorers);
  const int dims = ivm_dims(c);
  const unsigned trigger =
      static_cast<unsigned>(std::min<std::int64_t>(effective_trigger(c), 0xffffffffll));
  const bool balance = effective_trigger(c) < c.explorers;  // trigger >= T: no load balancing
  const std::uint64_t total = factorial(m);
  const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream());
  const Cost start = device_bound<Cost>(x, bound);
  // TreeExplore's launch.
  const std::size_t smem =
      sizeof(std::uint64_t) * (kIvmMaxFree + 1) + sizeof(Cost) * std::size_t(n) * n;
  const unsigned grid = blocks_for(T, c.block);
  const decltype(tree_explore_kernel<Explorer, Cost>()) tree_explore =
      tree_explore_kernel<Explorer, Cost>();
  const unsigned slice = static_cast<unsigned>(std::min<std::int64_t>(c.slice, 0xffffffffll));

  DeviceBuffer<Explorer> d_state;
  DeviceBuffer<std::uint64_t> d_pos, d_end, d_len;
  DeviceBuffer<std::uint8_t> d_fresh, d_selected;
  DeviceBuffer<int> d_victim;
  DeviceBuffer<Cost> d_dist;
  DeviceBuffer<IncumbentState> d_inc;
  DeviceBuffer<K::Totals> d_totals;
  DeviceBuffer<unsigned long long> d_counters;  // [0] nodes, [1] steals
  PinnedBuffer<K::Totals> h_totals;
  PinnedBuffer<IncumbentState> h_inc;
  PinnedBuffer<unsigned long long> h_counters;
  PinnedBuffer<std::uint64_t> h_pos, h_end;
  EventPair explore_ev, steal_ev, ws_ev;
  const DrainOnExit drain{stream};
  std::vector<Cost> dist;
  WsArrays ws{};
  WorkStealingGraph ws_graph;
  double explore_s = 0, steal_s = 0, idle_sum = 0;
  std::uint64_t launches = 0, ws_phases = 0, checks = 0;

  SingleSearch(const tsp::Instance& x_, const IvmConfig& c_, std::int64_t bound_, Context& ctx_)
      : x(x_), c(c_), bound(bound_), ctx(ctx_) {}

  void allocate() {
    auto ph = ctx.phase("alloc");
    d_state = DeviceBuffer<Explorer>(std::size_t(T), &ctx);
    d_pos = DeviceBuffer<std::uint64_t>(std::size_t(T), &ctx);
    d_end = DeviceBuffer<std::uint64_t>(std::size_t(T), &ctx);
    d_len = DeviceBuffer<std::uint64_t>(std::size_t(T), &ctx);
    d_fresh = DeviceBuffer<std::uint8_t>(std::size_t(T), &ctx);
    d_selected = DeviceBuffer<std::uint8_t>(std::size_t(T), &ctx);
    d_victim = DeviceBuffer<int>(std::size_t(T), &ctx);
    d_dist = DeviceBuffer<Cost>(std::size_t(n) * n, &ctx);
    d_inc = DeviceBuffer<IncumbentState>(1, &ctx);
    d_totals = DeviceBuffer<K::Totals>(1, &ctx);
    d_counters = DeviceBuffer<unsigned long long>(2, &ctx);
    h_totals = PinnedBuffer<K::Totals>(1);
    h_inc = PinnedBuffer<IncumbentState>(1);
    h_counters = PinnedBuffer<unsigned long long>(2);
    h_pos = PinnedBuffer<std::uint64_t>(std::size_t(T));
    h_end = PinnedBuffer<std::uint64_t>(std::size_t(T));
  }

  // Algorithm 1, line 2 (the explorers' intervals), the distances and the incumbent in.
  void upload() {
    dist = dist_as<Cost>(x);
    {
      auto ph = ctx.phase("h2d");
      for (int t = 0; t < T; ++t) {  // Algorithm 1, line 2: divide-interval([0, m!))
        h_pos[t] = partition_begin(total, std::uint64_t(T), std::uint64_t(t));
        h_end[t] = partition_begin(total, std::uint64_t(T), std::uint64_t(t) + 1);
      }
      h_inc[0] = incumbent_start(x, bound);
      CUDA_CHECK(
          cudaMemcpyAsync(d_pos.get(), h_pos.get(), d_pos.bytes(), cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(
          cudaMemcpyAsync(d_end.get(), h_end.get(), d_end.bytes(), cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaMemcpyAsync(d_dist.get(), dist.data(), d_dist.bytes(), cudaMemcpyHostToDevice,
                                 stream));
      CUDA_CHECK(cudaMemcpyAsync(d_inc.get(), h_inc.get(), sizeof(IncumbentState),
                                 cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaMemsetAsync(d_fresh.get(), 1, d_fresh.bytes(), stream));
      CUDA_CHECK(cudaMemsetAsync(d_counters.get(), 0, d_counters.bytes(), stream));
    }
    if (c.check_intervals) check_tiling(read_intervals(d_pos, d_end, stream), total);
  }

  // TreeExplore's occupancy counters; the work-stealing phase's arrays, captured once as a
  // graph when asked.
  void prepare_work_stealing() {
    set_occupancy(ctx, tree_explore, c.block, smem, T);
    ws = WsArrays{d_len.get(),
                  d_pos.get(),
                  d_end.get(),
                  d_victim.get(),
                  d_selected.get(),
                  d_fresh.get(),
                  d_totals.get(),
                  d_counters.get() + 1,
                  T,
                  dims,
                  std::uint32_t(c.arity),
                  grid,
                  c.block};
    if (c.ws_graph && balance) capture_work_stealing(ws, stream, ws_graph);
  }

  // One TreeExplore launch, then the lengths and the totals the host reads (the end test and
  // the trigger count), waited for; returns the totals.
  K::Totals explore_round() {
    {
      auto ph = ctx.phase("explore");
      CUDA_CHECK(cudaEventRecord(explore_ev.a, stream));
      CUDA_CHECK(cudaMemsetAsync(d_totals.get(), 0, sizeof(K::Totals), stream));
      {
        auto mark = ctx.profiled_launch();
        tree_explore<<<grid, c.block, smem, stream>>>(
            d_state.get(), d_pos.get(), d_end.get(), d_fresh.get(), T, m, d_dist.get(), d_inc.get(),
            start, d_totals.get(), d_counters.get(), trigger, static_cast<unsigned>(c.poll), slice);
        CUDA_CHECK_LAUNCH();
      }
      CUDA_CHECK(cudaEventRecord(explore_ev.b, stream));
    }
    ++launches;
    {
      auto ph = ctx.phase("steal");
      CUDA_CHECK(cudaEventRecord(steal_ev.a, stream));
      {
        auto mark = ctx.profiled_launch();
        K::compute_lengths<<<grid, c.block, 0, stream>>>(d_pos.get(), d_end.get(), d_len.get(), T,
                                                         d_totals.get());
        CUDA_CHECK_LAUNCH();
      }
      CUDA_CHECK(cudaMemcpyAsync(h_totals.get(), d_totals.get(), sizeof(K::Totals),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaEventRecord(steal_ev.b, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    explore_s += explore_ev.seconds();
    steal_s += steal_ev.seconds();
    return h_totals[0];
  }

  // Work-stealing phase (Algorithm 2) after an exploration that left `explored`.
  void steal_round(const Intervals& explored) {
    {
      auto ph = ctx.phase("steal");
      CUDA_CHECK(cudaEventRecord(ws_ev.a, stream));
      if (ws_graph.exec) {
        auto mark = ctx.profiled_launch();
        CUDA_CHECK(cudaGraphLaunch(ws_graph.exec, stream));
      } else {
        enqueue_work_stealing(ws, stream, &ctx);
      }
      CUDA_CHECK(cudaEventRecord(ws_ev.b, stream));
      CUDA_CHECK(cudaEventSynchronize(ws_ev.b));
    }
    steal_s += ws_ev.seconds();
    if (c.check_intervals) {
      std::vector<int> victim(static_cast<std::size_t>(T));
      CUDA_CHECK(
          cudaMemcpy(victim.data(), d_victim.get(), d_victim.bytes(), cudaMemcpyDeviceToHost));
      check_steal_step(explored, read_intervals(d_pos, d_end, stream), victim);
      ++checks;
    }
  }

  // Exploration and work-stealing phases until every interval is empty.
  void drive() {
    for (;;) {
      ctx.check_deadline();
      Intervals before;
      if (c.check_intervals) before = read_intervals(d_pos, d_end, stream);
      const K::Totals tot = explore_round();
      Intervals explored;
      if (c.check_intervals) {
        explored = read_intervals(d_pos, d_end, stream);
        check_explore_step(before, explored);
        ++checks;
      }
      if (tot.active == 0) break;                     // determine-end
      if (!balance || tot.empty < trigger) continue;  // stopped by the slice, not by the trigger
      ++ws_phases;
      idle_sum += tot.empty;
      steal_round(explored);
    }
  }

  // The incumbent and the counters back; the tour and the nodes into `out`.
  void copy_back(SearchOutcome& out) {
    {
      auto ph = ctx.phase("d2h");
      CUDA_CHECK(cudaMemcpyAsync(h_inc.get(), d_inc.get(), sizeof(IncumbentState),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaMemcpyAsync(h_counters.get(), d_counters.get(), d_counters.bytes(),
                                 cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    take_tour(x, h_inc[0], out);
    out.nodes += h_counters[0];
  }

  void set_counters(const SearchOutcome& out, const HostClock& clock) {
    const double kernel_s = explore_s + steal_s;
    ctx.set("nodes", double(out.nodes));
    ctx.set("nodes_per_s", out.nodes / std::max(clock.seconds(), 1e-9));
    ctx.set("kernel_nodes_per_s", kernel_s > 0 ? out.nodes / kernel_s : 0);
    ctx.set("explore_s", explore_s);
    ctx.set("steal_s", steal_s);
    ctx.set("steal_share", kernel_s > 0 ? steal_s / kernel_s : 0);
    ctx.set("explore_launches", double(launches));
    ctx.set("ws_phases", double(ws_phases));
    ctx.set("steals", double(h_counters[1]));
    ctx.set("idle_per_phase", ws_phases ? idle_sum / double(ws_phases) : 0);
    ctx.set("explorers", double(T));
    ctx.set("trigger", double(effective_trigger(c)));
    ctx.set("dims", double(dims));
    ctx.set("ws_kernels_per_phase", double(dims * (c.arity - 1) + 1));
    ctx.set("cost_bytes", double(sizeof(Cost)));
    ctx.set("state_bytes", double(sizeof(Explorer)));
    if (c.check_intervals) ctx.set("interval_checks", double(checks));
  }
};

template <class Cost, class Explorer>
void run(const tsp::Instance& x, const IvmConfig& c, std::int64_t bound, Context& ctx,
         SearchOutcome& out, const HostClock& clock) {
  SingleSearch<Cost, Explorer> s(x, c, bound, ctx);
  s.allocate();
  s.upload();
  s.prepare_work_stealing();
  s.drive();
  s.copy_back(out);
  s.set_counters(out, clock);
}

// The counters of the resolved configuration (the one-GPU run() sets its own).
void set_config_counters(const tsp::Instance& x, const IvmConfig& c, bool packed, Context& ctx,
                         const SearchOutcome& out, const HostClock& clock) {
  const bool narrow = narrow_costs(x);
  ctx.set("nodes", double(out.nodes));
  ctx.set("nodes_per_s", out.nodes / std::max(clock.seconds(), 1e-9));
  ctx.set("explorers", double(c.explorers));
  ctx.set("trigger", double(effective_trigger(c)));
  ctx.set("dims", double(ivm_dims(c)));
  ctx.set("ws_kernels_per_phase", double(ivm_dims(c) * (c.arity - 1) + 1));
  ctx.set("cost_bytes", narrow ? 4.0 : 8.0);
  const std::size_t packed_bytes =
      narrow ? sizeof(IvmPacked<std::int32_t>) : sizeof(IvmPacked<std::int64_t>);
  const std::size_t matrix_bytes =
      narrow ? sizeof(IvmExplorer<std::int32_t>) : sizeof(IvmExplorer<std::int64_t>);
  ctx.set("state_bytes", double(packed ? packed_bytes : matrix_bytes));
}

}  // namespace

SearchOutcome ivm_search(const tsp::Instance& x, const IvmConfig& c, std::int64_t bound,
                         Context& ctx) {
  validate(c);
  if (x.n < 1 || x.n > kIvmMaxCities)
    throw InputError("gpu.ivm: n = " + std::to_string(x.n) + " cities; at most " +
                     std::to_string(kIvmMaxCities) +
                     " (positions in [0, (n-1)!) are 64-bit: 20! < 2^64 < 21!)");
  const HostClock clock;
  SearchOutcome out;
  if (!searched_on_host(x, bound, out)) {
    out.nodes = 1;  // the root (0 < bound); explorers start at its children
    const bool packed = c.state == IvmState::Packed;
    if (c.gpus > 1) {
      ivm_multi_search(x, c, bound, ctx, out);
      set_config_counters(x, c, packed, ctx, out, clock);
    } else if (narrow_costs(x)) {
      if (packed)
        run<std::int32_t, IvmPacked<std::int32_t>>(x, c, bound, ctx, out, clock);
      else
        run<std::int32_t, IvmExplorer<std::int32_t>>(x, c, bound, ctx, out, clock);
    } else {
      if (packed)
        run<std::int64_t, IvmPacked<std::int64_t>>(x, c, bound, ctx, out, clock);
      else
        run<std::int64_t, IvmExplorer<std::int64_t>>(x, c, bound, ctx, out, clock);
    }
  } else {
    for (const char* k : {"kernel_nodes_per_s", "explore_s", "steal_s", "steal_share",
                          "explore_launches", "ws_phases", "steals", "idle_per_phase"})
      ctx.set(k, 0);
    ctx.set("nodes", double(out.nodes));
    ctx.set("nodes_per_s", out.nodes / std::max(clock.seconds(), 1e-9));
    ctx.set("explorers", double(c.explorers));
    ctx.set("trigger", double(effective_trigger(c)));
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return out;
}

}  // namespace dpgpu::backtracking
