// mcm_walk.cuh — the end both GPU solvers share: walk the optimal tree of splits on the
// device, copy the n - 1 splits and the optimum back, and build the parenthesization.
#pragma once
#include <cstdint>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "mcm_kernels.cuh"
#include "mcm_solvers.hpp"

namespace dpgpu::mcm_gpu {

// split_of: the solver's view of its split table (split_of(a, b), or split_of(a, b, lane)
// called by a whole warp); d_cost: where its table holds the optimum.
template <class SplitOf, class T>
GpuAnswer walk_answer(SplitOf split_of, ll n, const T* d_cost, Context& ctx, cudaStream_t stream,
                      std::int64_t& launches) {
  GpuAnswer ans;
  std::vector<std::int64_t> splits;
  {
    auto ph = ctx.phase("walk");
    if (n >= 2) {
      gpu::DeviceBuffer<int> d_out(std::size_t(n - 1), &ctx);
      gpu::DeviceBuffer<ll> d_stack(std::size_t(n + 2), &ctx);
      if constexpr (requires(const SplitOf& f, ll a, int lane) { f(a, a, lane); })
        walk_splits_warp<<<1, 32, 0, stream>>>(split_of, n, d_out.get(),
                                               d_stack.get());  // a warp per split
      else
        walk_splits<<<1, 1, 0, stream>>>(split_of, n, d_out.get(), d_stack.get());
      CUDA_CHECK_LAUNCH();
      ++launches;
      gpu::PinnedBuffer<int> h_out{std::size_t(n - 1)};
      gpu::PinnedBuffer<T> h_cost(1);
      CUDA_CHECK(
          cudaMemcpyAsync(h_out.get(), d_out.get(), d_out.bytes(), cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaMemcpyAsync(h_cost.get(), d_cost, sizeof(T), cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      splits.assign(h_out.get(), h_out.get() + (n - 1));
      ans.cost = std::int64_t(h_cost[0]);
    }
  }
  auto ph = ctx.phase("d2h");  // host side: the string from the split list
  ans.parenthesization = ::mcm::parenthesize_preorder(n, splits);
  return ans;
}

}  // namespace dpgpu::mcm_gpu
