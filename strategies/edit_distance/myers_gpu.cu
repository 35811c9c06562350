// myers_gpu.cu — gpu.myers's driver: the GPU pass runner (one launch per batch of jobs) and
// the solve over it.
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "myers_gpu.hpp"
#include "myers_batch.hpp"
#include "myers_kernel.cuh"
#include "myers_thread_kernel.cuh"
#include "myers_solve.hpp"

namespace dpgpu::myers {

namespace {

using gpu::DeviceBuffer;
using kernel::DevJob;
using kernel::u64;

void* kernel_of(int w) {
  return w == 1   ? reinterpret_cast<void*>(&kernel::pass<1>)
         : w == 2 ? reinterpret_cast<void*>(&kernel::pass<2>)
                  : reinterpret_cast<void*>(&kernel::pass<4>);
}

class GpuPassRunner final : public PassRunner {
 public:
  GpuPassRunner(const Symbols& s, const MyersConfig& c, Context& ctx)
      : ctx_(ctx), stream_(static_cast<cudaStream_t>(ctx.stream())), sigma_(s.sigma) {
    int dev = 0, optin = 0, sms = 1;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    w_ = c.words_per_thread;
    warps_ = c.warps;
    smem_ = fit_masks(sigma_, std::size_t(optin), warps_, w_);
    ctx_.set("words_per_thread", w_);
    ctx_.set("warps_per_block", warps_);
    ctx_.set("sigma", sigma_);
    void* k = kernel_of(w_);
    CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_)));
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, warps_ * 32, smem_));
    max_blocks_ = std::max(1, per_sm) * sms;
    thread_words_ = c.thread_words;
    if (thread_words_ > 0) fit_thread_classes(optin, sms);
    {
      auto alloc = ctx_.phase("alloc");
      x_ = DeviceBuffer<std::uint8_t>(s.x.size(), &ctx_);
      y_ = DeviceBuffer<std::uint8_t>(s.y.size(), &ctx_);
      ticket_ = DeviceBuffer<unsigned long long>(1, &ctx_);
    }
    auto h2d = ctx_.phase("h2d");
    CUDA_CHECK(cudaMemcpyAsync(x_.get(), s.x.data(), s.x.size(), cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(cudaMemcpyAsync(y_.get(), s.y.data(), s.y.size(), cudaMemcpyHostToDevice, stream_));
  }

  // Distances alone: pairs whose x fits in thread_words words one per thread, the rest (and
  // every job whose column is asked for) as stripes.
  void run(const std::vector<PassJob>& jobs, Columns& out, bool want_columns) override {
    if (want_columns || thread_words_ == 0) return run_stripes(jobs, out, want_columns);
    std::vector<PassJob> wide;
    std::vector<std::size_t> wide_of;
    std::vector<thread_kernel::PairJob> narrow[kClasses];
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      const PassJob& j = jobs[k];
      const int cls = class_of(words_of(j.x_len));
      if (j.reversed || words_of(j.x_len) > thread_words_ || cls < 0 || threads_[cls] == 0) {
        wide.push_back(j);
        wide_of.push_back(k);
        continue;
      }
      narrow[cls].push_back(
          {j.x_off, j.y_off, std::int32_t(j.x_len), std::int32_t(j.y_len), std::int64_t(k)});
    }
    out.offset = column_offsets(jobs);
    out.distance.assign(jobs.size(), 0);
    out.pv.clear();
    out.mv.clear();
    run_threads(narrow, out.distance);
    if (wide.empty()) return;
    Columns w;
    run_stripes(wide, w, false);
    for (std::size_t t = 0; t < wide.size(); ++t) out.distance[wide_of[t]] = w.distance[t];
  }

 private:
  static constexpr int kClasses = 5;  // W = 1, 2, 4, 8, 16
  static int class_of(std::int64_t words) {
    for (int c = 0; c < kClasses; ++c)
      if (words <= (std::int64_t(1) << c)) return c;
    return -1;
  }

  // Each class of pairs one launch of its W, distances into `dist` at each job's index.
  void run_threads(std::vector<thread_kernel::PairJob> (&narrow)[kClasses],
                   std::vector<std::int64_t>& dist) {
    std::size_t total = 0;
    for (auto& n : narrow) total += n.size();
    if (total == 0) return;
    {
      auto alloc = ctx_.phase("alloc");
      grow(pairs_, total);
      grow(tdist_, dist.size());
    }
    std::size_t at = 0;
    for (int cls = 0; cls < kClasses; ++cls) {
      if (narrow[cls].empty()) continue;
      {
        auto h2d = ctx_.phase("h2d");
        CUDA_CHECK(cudaMemcpyAsync(pairs_.get() + at, narrow[cls].data(),
                                   narrow[cls].size() * sizeof(thread_kernel::PairJob),
                                   cudaMemcpyHostToDevice, stream_));
      }
      auto compute = ctx_.phase("compute");
      launch_threads(cls, pairs_.get() + at, int(narrow[cls].size()));
      ctx_.add("kernel_launches", 1);
      ctx_.add("thread_pairs", double(narrow[cls].size()));
      at += narrow[cls].size();
    }
    auto d2h = ctx_.phase("d2h");
    std::vector<std::int64_t> got(dist.size());
    CUDA_CHECK(
        cudaMemcpyAsync(got.data(), tdist_.get(), got.size() * 8, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (int cls = 0; cls < kClasses; ++cls)
      for (const auto& p : narrow[cls]) dist[std::size_t(p.index)] = got[std::size_t(p.index)];
  }

  template <int W>
  void launch_thread_class(const thread_kernel::PairJob* pairs, int n, int cls) {
    const int threads = threads_[cls];
    const std::size_t smem = std::size_t(std::max(sigma_, 1)) * W * std::size_t(threads) * 8;
    const int blocks =
        int(std::min<std::int64_t>((n + threads - 1) / threads, thread_blocks_[cls]));
    thread_kernel::per_thread<W><<<blocks, threads, smem, stream_>>>(
        pairs, n, x_.get(), y_.get(), sigma_, reinterpret_cast<long long*>(tdist_.get()));
    CUDA_CHECK_LAUNCH();
  }
  void launch_threads(int cls, const thread_kernel::PairJob* pairs, int n) {
    switch (cls) {
      case 0: launch_thread_class<1>(pairs, n, cls); break;
      case 1: launch_thread_class<2>(pairs, n, cls); break;
      case 2: launch_thread_class<4>(pairs, n, cls); break;
      case 3: launch_thread_class<8>(pairs, n, cls); break;
      default: launch_thread_class<16>(pairs, n, cls); break;
    }
  }
  // Threads per block of each class: 128, halved until the masks fit (0: they never do).
  void fit_thread_classes(int optin, int sms) {
    void* kernels[kClasses] = {reinterpret_cast<void*>(&thread_kernel::per_thread<1>),
                               reinterpret_cast<void*>(&thread_kernel::per_thread<2>),
                               reinterpret_cast<void*>(&thread_kernel::per_thread<4>),
                               reinterpret_cast<void*>(&thread_kernel::per_thread<8>),
                               reinterpret_cast<void*>(&thread_kernel::per_thread<16>)};
    for (int cls = 0; cls < kClasses; ++cls) {
      int threads = 128;
      auto smem = [&] { return std::size_t(std::max(sigma_, 1)) * (1u << cls) * threads * 8; };
      while (smem() > std::size_t(optin) && threads > 32) threads /= 2;
      if (smem() > std::size_t(optin)) continue;
      CUDA_CHECK(cudaFuncSetAttribute(kernels[cls], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(smem())));
      int per_sm = 0;
      CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernels[cls], threads, smem()));
      threads_[cls] = threads;
      thread_blocks_[cls] = std::max(1, per_sm) * sms;
    }
  }

 public:
  void run_stripes(const std::vector<PassJob>& jobs, Columns& out, bool want_columns) {
    out.offset = column_offsets(jobs);
    if (jobs.empty()) {
      out.distance.clear();
      return;
    }
    std::vector<DevJob> dev;
    out.distance.resize(jobs.size());  // each job's counter starts at y_len (myers_kernel.cuh)
    std::int64_t stripes = 0, slots = 0;
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      const PassJob& j = jobs[k];
      DevJob d{};
      d.x_off = j.x_off, d.x_len = j.x_len, d.y_off = j.y_off, d.y_len = j.y_len;
      d.words = words_of(j.x_len);
      d.stripes = (d.words + 32 * w_ - 1) / (32 * w_);
      d.stripe_base = stripes;
      d.slot_off = slots;
      d.out_off = out.offset[k];
      d.reversed = j.reversed;
      out.distance[k] = j.y_len;
      stripes += d.stripes;
      slots += std::max<std::int64_t>(d.stripes - 1, 0) * ((j.y_len + 31) / 32);
      dev.push_back(d);
    }
    if (stripes >= (std::int64_t(1) << 31))
      throw std::runtime_error("gpu.myers: more than 2^31 stripes in one batch");
    const std::size_t words = std::size_t(std::max<std::int64_t>(out.offset.back(), 1));
    {
      auto alloc = ctx_.phase("alloc");
      grow(jobs_, std::max<std::size_t>(dev.size(), 1));
      grow(slots_, std::size_t(std::max<std::int64_t>(slots, 1)));
      grow(dist_, std::max<std::size_t>(dev.size(), 1));
      if (want_columns) {
        grow(pv_, words);
        grow(mv_, words);
      }
    }
    {
      auto h2d = ctx_.phase("h2d");
      CUDA_CHECK(cudaMemcpyAsync(jobs_.get(), dev.data(), dev.size() * sizeof(DevJob),
                                 cudaMemcpyHostToDevice, stream_));
      CUDA_CHECK(cudaMemcpyAsync(dist_.get(), out.distance.data(), dev.size() * 8,
                                 cudaMemcpyHostToDevice, stream_));
    }
    {
      auto compute = ctx_.phase("compute");
      // A slot is ready when it is not 0 (every field of a written one is 1, 2 or 3).
      CUDA_CHECK(cudaMemsetAsync(slots_.get(), 0, std::size_t(std::max<std::int64_t>(slots, 1)) * 8,
                                 stream_));
      CUDA_CHECK(cudaMemsetAsync(ticket_.get(), 0, sizeof(unsigned long long), stream_));
      const int blocks = int(std::min<std::int64_t>((stripes + warps_ - 1) / warps_, max_blocks_));
      auto mark = ctx_.profiled_launch();
      const int njobs = int(dev.size());
      switch (w_) {
        case 1: launch<1>(blocks, njobs, stripes, want_columns); break;
        case 2: launch<2>(blocks, njobs, stripes, want_columns); break;
        default: launch<4>(blocks, njobs, stripes, want_columns); break;
      }
      ctx_.add("kernel_launches", 1);
      ctx_.add("stripes", double(stripes));
    }
    auto d2h = ctx_.phase("d2h");
    CUDA_CHECK(cudaMemcpyAsync(out.distance.data(), dist_.get(), dev.size() * 8,
                               cudaMemcpyDeviceToHost, stream_));
    out.pv.clear();
    out.mv.clear();
    if (want_columns) {
      out.pv.resize(std::size_t(out.offset.back()));
      out.mv.resize(std::size_t(out.offset.back()));
      CUDA_CHECK(cudaMemcpyAsync(out.pv.data(), pv_.get(), out.pv.size() * 8,
                                 cudaMemcpyDeviceToHost, stream_));
      CUDA_CHECK(cudaMemcpyAsync(out.mv.data(), mv_.get(), out.mv.size() * 8,
                                 cudaMemcpyDeviceToHost, stream_));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  template <class T>
  void grow(DeviceBuffer<T>& b, std::size_t count) {
    if (b.size() < count) {
      b = DeviceBuffer<T>();  // free first: the peak is the larger, not the sum
      b = DeviceBuffer<T>(count, &ctx_);
    }
  }
  template <int W>
  void launch(int blocks, int njobs, std::int64_t stripes, bool columns) {
    kernel::pass<W><<<blocks, warps_ * 32, smem_, stream_>>>(
        jobs_.get(), njobs, stripes, x_.get(), y_.get(), sigma_, slots_.get(), ticket_.get(),
        columns ? pv_.get() : nullptr, columns ? mv_.get() : nullptr,
        reinterpret_cast<unsigned long long*>(dist_.get()));
    CUDA_CHECK_LAUNCH();
  }

  Context& ctx_;
  cudaStream_t stream_;
  int sigma_, w_ = 1, warps_ = 1, max_blocks_ = 1;
  std::size_t smem_ = 0;
  DeviceBuffer<std::uint8_t> x_, y_;
  DeviceBuffer<unsigned long long> ticket_;
  DeviceBuffer<DevJob> jobs_;
  DeviceBuffer<u64> slots_, pv_, mv_;
  DeviceBuffer<std::int64_t> dist_, tdist_;
  DeviceBuffer<thread_kernel::PairJob> pairs_;
  int thread_words_ = 0;
  int threads_[kClasses] = {}, thread_blocks_[kClasses] = {};
};

void validate(const MyersConfig& c) {
  if (auto why = why_invalid(c); !why.empty()) throw InputError("gpu.myers: " + why);
}

}  // namespace

std::unique_ptr<PassRunner> make_gpu_runner(const Symbols& s, const MyersConfig& c, Context& ctx) {
  validate(c);
  return std::make_unique<GpuPassRunner>(s, c, ctx);
}

MyersResult solve(std::string_view a, std::string_view b, const MyersConfig& c, Context& ctx) {
  validate(c);
  ctx.set("kernel_launches", 0);
  Solved s = solve_over(a, b, c, [&](const Symbols& sym) { return make_gpu_runner(sym, c, ctx); });
  if (c.script) {
    ctx.set("levels", s.stats.levels);
    ctx.set("leaves", double(s.stats.leaves));
    ctx.set("pass_cells", s.stats.pass_cells);
    ctx.set("leaf_cells", s.stats.leaf_cells);
  }
  return {s.distance, std::move(s.script)};
}

}  // namespace dpgpu::myers

namespace dpgpu::myers {

std::vector<std::int32_t> solve_batch(const edit::BatchInstance& x, const MyersConfig& c,
                                      Context& ctx) {
  validate(c);
  ctx.set("kernel_launches", 0);
  return solve_batch_over(x, [&](const Symbols& sym) { return make_gpu_runner(sym, c, ctx); });
}

}  // namespace dpgpu::myers
