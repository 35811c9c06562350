// bpdfs.cu — host driver of gpu.bpdfs (paper 004, Sect. 2.3): the CPU search fills the active
// set to depth dcpu, the set goes to the device, one kernel explores every node's subtree.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "backtracking.hpp"
#include "bp_frontier.hpp"
#include "bp_kernel.cuh"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "search_common.cuh"

namespace dpgpu::backtracking {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;

// The active set's subtrees explored on the device, one kernel (Sect. 2.3): buffers, copies
// in, the launch between two events, the incumbent and the node count back into `out`.
// Returns the kernel's seconds.
template <class Cost>
double explore_on_device(const tsp::Instance& x, const BpdfsConfig& c, std::int64_t bound,
                         const ActiveSet& a, int depth, Context& ctx, SearchOutcome& out) {
  const int n = x.n;
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const Cost start = device_bound<Cost>(x, bound);
  std::vector<Cost> costs(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) costs[i] = static_cast<Cost>(a.costs[i]);
  const std::vector<Cost> dist = dist_as<Cost>(x);
  DeviceBuffer<std::uint8_t> d_cycles;
  DeviceBuffer<std::uint32_t> d_bitsets;
  DeviceBuffer<Cost> d_costs, d_dist;
  DeviceBuffer<IncumbentState> d_inc;
  DeviceBuffer<unsigned long long> d_nodes;
  PinnedBuffer<IncumbentState> h_inc;
  PinnedBuffer<unsigned long long> h_nodes;
  EventPair ev;
  const DrainOnExit drain{stream};
  {
    auto ph = ctx.phase("alloc");
    d_cycles = DeviceBuffer<std::uint8_t>(a.cycles.size(), &ctx);
    d_bitsets = DeviceBuffer<std::uint32_t>(a.size(), &ctx);
    d_costs = DeviceBuffer<Cost>(a.size(), &ctx);
    d_dist = DeviceBuffer<Cost>(std::size_t(n) * n, &ctx);
    d_inc = DeviceBuffer<IncumbentState>(1, &ctx);
    d_nodes = DeviceBuffer<unsigned long long>(1, &ctx);
    h_inc = PinnedBuffer<IncumbentState>(1);
    h_nodes = PinnedBuffer<unsigned long long>(1);
  }
  {
    auto ph = ctx.phase("h2d");
    h_inc[0] = incumbent_start(x, bound);
    CUDA_CHECK(cudaMemcpyAsync(d_cycles.get(), a.cycles.data(), d_cycles.bytes(),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_bitsets.get(), a.bitsets.data(), d_bitsets.bytes(),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_costs.get(), costs.data(), d_costs.bytes(), cudaMemcpyHostToDevice,
                               stream));
    CUDA_CHECK(
        cudaMemcpyAsync(d_dist.get(), dist.data(), d_dist.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_inc.get(), h_inc.get(), sizeof(IncumbentState),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemsetAsync(d_nodes.get(), 0, sizeof(unsigned long long), stream));
    CUDA_CHECK(
        cudaStreamSynchronize(stream));  // the pageable sources above must outlive the copies
  }
  {
    auto ph = ctx.phase("explore");
    const std::uint64_t blocks = (a.size() + std::uint64_t(c.block) - 1) / std::uint64_t(c.block);
    if (blocks > 0x7fffffffull)
      throw InputError("gpu.bpdfs: active set of " + std::to_string(a.size()) +
                       " nodes needs more than 2^31 blocks; lower dcpu");
    CUDA_CHECK(cudaEventRecord(ev.a, stream));
    {
      auto mark = ctx.profiled_launch();
      bp_kernel::explore_active_set<Cost>
          <<<static_cast<unsigned>(blocks), c.block, sizeof(Cost) * n * n, stream>>>(
              d_cycles.get(), d_bitsets.get(), d_costs.get(), a.size(), depth, n, d_dist.get(),
              d_inc.get(), start, static_cast<unsigned>(c.poll), d_nodes.get());
      CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaEventRecord(ev.b, stream));
  }
  {
    auto ph = ctx.phase("d2h");
    CUDA_CHECK(cudaMemcpyAsync(h_inc.get(), d_inc.get(), sizeof(IncumbentState),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(h_nodes.get(), d_nodes.get(), sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  const double kernel_s = ev.seconds();
  take_tour(x, h_inc[0], out);
  out.nodes += h_nodes[0];
  ctx.set("gpu_nodes", double(h_nodes[0]));
  return kernel_s;
}

template <class Cost>
void run(const tsp::Instance& x, const BpdfsConfig& c, std::int64_t bound, Context& ctx,
         SearchOutcome& out) {
  const int depth = std::min(c.dcpu, x.n - 1);
  ActiveSet a;
  {
    auto ph = ctx.phase("frontier");
    a = bp_frontier(x, bound, depth, [&ctx] { ctx.check_deadline(); });
  }
  out.nodes = a.nodes;
  ctx.set("active_set", double(a.size()));
  ctx.set("cpu_nodes", double(a.nodes));
  ctx.set("depth", double(depth));
  double kernel_s = 0;
  if (a.size() > 0)
    kernel_s = explore_on_device<Cost>(x, c, bound, a, depth, ctx, out);
  else
    ctx.set("gpu_nodes", 0);
  ctx.set("explore_s", kernel_s);
  ctx.set("kernel_nodes_per_s", kernel_s > 0 ? double(out.nodes - a.nodes) / kernel_s : 0);
  ctx.set("cost_bytes", double(sizeof(Cost)));
}

}  // namespace

SearchOutcome bpdfs_search(const tsp::Instance& x, const BpdfsConfig& c, std::int64_t bound,
                           Context& ctx) {
  validate(c);
  if (x.n < 1 || x.n > kBpMaxCities)
    throw InputError("gpu.bpdfs: n = " + std::to_string(x.n) + " cities; at most " +
                     std::to_string(kBpMaxCities) + " (one 32-bit bitset per path)");
  const HostClock clock;
  SearchOutcome out;
  if (!searched_on_host(x, bound, out)) {
    if (narrow_costs(x))
      run<std::int32_t>(x, c, bound, ctx, out);
    else
      run<std::int64_t>(x, c, bound, ctx, out);
  } else {
    for (const char* k :
         {"active_set", "cpu_nodes", "gpu_nodes", "explore_s", "kernel_nodes_per_s"})
      ctx.set(k, 0);
  }
  ctx.set("nodes", double(out.nodes));
  ctx.set("nodes_per_s", out.nodes / std::max(clock.seconds(), 1e-9));
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return out;
}

}  // namespace dpgpu::backtracking
