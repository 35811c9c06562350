// ivm_launch.cuh — host pieces of gpu.ivm shared by the one-GPU driver (ivm.cu) and the
// multi-GPU one (ivm_multi.cu): grid sizes, the TreeExplore kernel of an explorer type, its
// occupancy counters, and the work-stealing phase (Algorithm 2) enqueued on a stream.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/context.hpp"
#include "interval_check.hpp"
#include "ivm_kernels.cuh"

namespace dpgpu::backtracking {

inline unsigned blocks_for(std::int64_t items, int block) {
  return static_cast<unsigned>((items + block - 1) / block);
}

// The explorers' intervals copied back (check_intervals).
inline Intervals read_intervals(const gpu::DeviceBuffer<std::uint64_t>& pos,
                                const gpu::DeviceBuffer<std::uint64_t>& end, cudaStream_t s) {
  Intervals r{std::vector<std::uint64_t>(pos.size()), std::vector<std::uint64_t>(end.size())};
  CUDA_CHECK(cudaMemcpyAsync(r.pos.data(), pos.get(), pos.bytes(), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaMemcpyAsync(r.end.data(), end.get(), end.bytes(), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  return r;
}

struct WorkStealingGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  WorkStealingGraph() = default;
  WorkStealingGraph(const WorkStealingGraph&) = delete;
  WorkStealingGraph& operator=(const WorkStealingGraph&) = delete;
  ~WorkStealingGraph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

// The TreeExplore kernel of an explorer type: the packed one is register-capped for residency.
template <class Explorer, class Cost>
auto tree_explore_kernel() {
  if constexpr (std::is_same_v<Explorer, IvmPacked<Cost>>)
    return &ivm_kernel::tree_explore_resident<Explorer, Cost>;
  else
    return &ivm_kernel::tree_explore<Explorer, Cost>;
}

// Occupancy of TreeExplore (Fig. 5's question: how many explorers run at once): registers and
// local bytes per thread, resident blocks per SM, and the explorers resident at once.
template <class Kernel>
void set_occupancy(Context& ctx, Kernel kernel, int block, std::size_t smem,
                   std::int64_t explorers) {
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  int per_sm = 0, dev = 0, sms = 0, max_threads = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  const double slots = double(per_sm) * block * sms;
  ctx.set("registers", double(attr.numRegs));
  ctx.set("local_bytes", double(attr.localSizeBytes));
  ctx.set("blocks_per_sm", double(per_sm));
  ctx.set("occupancy", double(per_sm) * block / max_threads);
  ctx.set("resident_explorers", std::min(slots, double(explorers)));
}

// The device arrays a work-stealing phase reads and writes (one GPU's explorers).
struct WsArrays {
  std::uint64_t *len, *pos, *end;
  int* victim;
  std::uint8_t *selected, *fresh;
  ivm_kernel::Totals* totals;
  unsigned long long* steals;
  int explorers, dims;
  std::uint32_t arity;
  unsigned grid;
  int block;
};

// Algorithm 2 after the lengths: reset the selection, one trySelect launch per dimension and
// offset, stealWork. `mark`: the Context whose profiler marks each launch (nullptr while a
// CUDA graph is captured).
inline void enqueue_work_stealing(const WsArrays& a, cudaStream_t stream, Context* mark) {
  auto marked = [&](auto&& launch) {
    if (!mark) return launch();
    auto m = mark->profiled_launch();
    launch();
  };
  CUDA_CHECK(cudaMemsetAsync(a.victim, 0xff, sizeof(int) * std::size_t(a.explorers), stream));
  CUDA_CHECK(cudaMemsetAsync(a.selected, 0, std::size_t(a.explorers), stream));
  std::uint32_t stride = 1;
  for (int i = 0; i < a.dims; ++i, stride *= a.arity)
    for (std::uint32_t j = 1; j < a.arity; ++j)
      marked([&] {
        ivm_kernel::try_select<<<a.grid, a.block, 0, stream>>>(
            a.len, a.victim, a.selected, a.explorers, stride, a.arity, j, a.totals);
        CUDA_CHECK_LAUNCH();
      });
  marked([&] {
    ivm_kernel::steal_work<<<a.grid, a.block, 0, stream>>>(a.victim, a.pos, a.end, a.fresh,
                                                           a.explorers, a.steals);
    CUDA_CHECK_LAUNCH();
  });
}

// The phase captured once as a CUDA graph (its arguments never change; tiny kernels, so
// launch overhead dominates a phase launched kernel by kernel).
inline void capture_work_stealing(const WsArrays& a, cudaStream_t stream, WorkStealingGraph& g) {
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  enqueue_work_stealing(a, stream, nullptr);
  CUDA_CHECK(cudaStreamEndCapture(stream, &g.graph));
  CUDA_CHECK(cudaGraphInstantiate(&g.exec, g.graph, 0));
}

}  // namespace dpgpu::backtracking
