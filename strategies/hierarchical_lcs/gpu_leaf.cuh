// gpu_leaf.cuh — the GPU beneath the recursion: takes a region whose longest side is at most
// gpu_cutoff and returns its output boundary (the contract of chowdhury::base_boundary).
#pragma once
#include <chrono>
#include <cstring>
#include <string_view>

#include "device_buffer.cuh"
#include "hierarchical_lcs.hpp"
#include "lcs/chowdhury.hpp"
#include "level_kernels.cuh"

namespace dpgpu::hierarchical {

class GpuLeaf {
 public:
  // Copies both strings to the device once; sizes the frontier for the largest region.
  GpuLeaf(std::string_view a, std::string_view b, const HierarchicalConfig& c, Context& ctx,
          HierarchicalCounters& counters)
      : c_(c),
        ctx_(ctx),
        counters_(counters),
        stream_(static_cast<cudaStream_t>(ctx.stream())),
        side_(std::min<std::size_t>(std::size_t(c.gpu_cutoff), std::max(a.size(), b.size()))) {
    const std::size_t blocks = (side_ + c.grid - 1) / c.grid, slot = std::size_t(c.grid) + 1;
    {
      auto alloc = ctx.phase("alloc");
      a_ = gpu::DeviceBuffer<std::uint8_t>(a.size(), &ctx);
      b_ = gpu::DeviceBuffer<std::uint8_t>(b.size(), &ctx);
      bottom_ = gpu::DeviceBuffer<Score>(blocks * slot, &ctx);
      right_ = gpu::DeviceBuffer<Score>(blocks * slot, &ctx);
      edges_ = gpu::DeviceBuffer<Score>(2 * side_, &ctx);
      staging_ = gpu::PinnedBuffer<Score>(2 * side_);
    }
    auto h2d = ctx.phase("h2d");
    if (!a.empty())
      CUDA_CHECK(cudaMemcpyAsync(a_.get(), a.data(), a.size(), cudaMemcpyHostToDevice, stream_));
    if (!b.empty())
      CUDA_CHECK(cudaMemcpyAsync(b_.get(), b.data(), b.size(), cudaMemcpyHostToDevice, stream_));
    counters_.h2d_bytes += a.size() + b.size();
  }

  bool offload(const lcs::chowdhury::Region& r) const {
    return std::max(r.h, r.w) <= std::size_t(c_.gpu_cutoff);
  }

  void boundary(const lcs::chowdhury::Region& r, Score* top, Score* left, Score corner) {
    ctx_.check_deadline();  // the CPU polls rarely when the GPU does the cells
    const auto start = std::chrono::steady_clock::now();
    const int g = int(c_.grid);
    Subproblem s{a_.get() + r.i0,
                 b_.get() + r.j0,
                 std::uint32_t(r.h),
                 std::uint32_t(r.w),
                 std::uint32_t((r.h + g - 1) / g),
                 std::uint32_t((r.w + g - 1) / g),
                 bottom_.get(),
                 right_.get()};
    const std::size_t edge = r.w + r.h;
    std::memcpy(staging_.get(), top, r.w * sizeof(Score));
    std::memcpy(staging_.get() + r.w, left, r.h * sizeof(Score));
    CUDA_CHECK(cudaMemcpyAsync(edges_.get(), staging_.get(), edge * sizeof(Score),
                               cudaMemcpyHostToDevice, stream_));
    const int helper_blocks =
        int(std::min<std::size_t>(1024, (edge + 2 * (s.rows + s.cols) + 255) / 256));
    scatter_inputs<<<helper_blocks, 256, 0, stream_>>>(s, g, edges_.get(), edges_.get() + r.w,
                                                       corner);
    CUDA_CHECK_LAUNCH();
    const int threads = int(threads_per_block(c_));
    const std::size_t shared = diagonal_shared_bytes(g);
    for (std::uint32_t d = 0; d + 1 < s.rows + s.cols; ++d) {
      const std::uint32_t first = d >= s.cols ? d - s.cols + 1 : 0, last = std::min(d, s.rows - 1);
      const std::uint32_t count = last - first + 1;
      {
        auto mark = ctx_.profiled_launch();
        launch(count, threads, shared, s, g, d);
      }
      counters_.gpu_blocks += count;
    }
    gather_outputs<<<helper_blocks, 256, 0, stream_>>>(s, g, edges_.get(), edges_.get() + r.w);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(staging_.get(), edges_.get(), edge * sizeof(Score),
                               cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::memcpy(top, staging_.get(), r.w * sizeof(Score));
    std::memcpy(left, staging_.get() + r.w, r.h * sizeof(Score));

    const std::uint64_t padded = std::uint64_t(s.rows) * s.cols * g * g;
    counters_.gpu_subproblems += 1;
    counters_.gpu_launches += s.rows + s.cols - 1;
    counters_.gpu_cells += padded;
    counters_.gpu_subblocks += padded / (c_.sub * c_.sub);
    counters_.gpu_real_cells += std::uint64_t(r.h) * r.w;
    counters_.h2d_bytes += edge * sizeof(Score);
    counters_.d2h_bytes += edge * sizeof(Score);
    counters_.gpu_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

 private:
  void launch(std::uint32_t blocks, int threads, std::size_t shared, const Subproblem& s, int g,
              std::uint32_t d) {
    switch (c_.sub) {
      case 2: diagonal_blocks<2><<<blocks, threads, shared, stream_>>>(s, g, d); break;
      case 4: diagonal_blocks<4><<<blocks, threads, shared, stream_>>>(s, g, d); break;
      case 8: diagonal_blocks<8><<<blocks, threads, shared, stream_>>>(s, g, d); break;
      default: diagonal_blocks<16><<<blocks, threads, shared, stream_>>>(s, g, d); break;
    }
    CUDA_CHECK_LAUNCH();
  }

  HierarchicalConfig c_;
  Context& ctx_;
  HierarchicalCounters& counters_;
  cudaStream_t stream_;
  std::size_t side_;
  gpu::DeviceBuffer<std::uint8_t> a_, b_;
  gpu::DeviceBuffer<Score> bottom_, right_, edges_;
  gpu::PinnedBuffer<Score> staging_;
};

}  // namespace dpgpu::hierarchical
