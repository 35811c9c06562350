// bitlcs_multigpu.cu — one pass over several GPUs: per logical GPU its copy of the strings,
// its stripes' V and carry rings, and an import ring; the launches of all GPUs enqueued from
// one host thread in pipeline order (launch r of GPU g+1 waits, by event, for the peer copy
// of GPU g's launch r carries), with no host round trip until the pass is done.
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bitlcs_gpu.hpp"
#include "bitlcs_multigpu.hpp"
#include "bitlcs_stripe_plan.hpp"
#include "bitlcs_window_kernel.cuh"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "peer_access.cuh"

namespace dpgpu::bitlcs {

namespace {

using gpu::DeviceBuffer;
using kernel::WindowArgs;

void* window_kernel_of(int bits, int w) {
  using kernel::u32;
  using kernel::u64;
  using kernel::window_pass;
  if (bits == 32)
    return w == 1   ? (void*)&window_pass<u32, 1>
           : w == 2 ? (void*)&window_pass<u32, 2>
                    : (void*)&window_pass<u32, 4>;
  return w == 1   ? (void*)&window_pass<u64, 1>
         : w == 2 ? (void*)&window_pass<u64, 2>
                  : (void*)&window_pass<u64, 4>;
}

// Timed events of one logical GPU's pass: before and after each launch and each copy.
struct PassEvents {
  std::vector<cudaEvent_t> kstart, kend, cstart, cend;
  cudaEvent_t t0 = nullptr;
  void create(std::int64_t launches) {
    release();
    for (auto* v : {&kstart, &kend, &cstart, &cend}) {
      v->resize(std::size_t(launches));
      for (auto& e : *v) CUDA_CHECK(cudaEventCreate(&e));
    }
    CUDA_CHECK(cudaEventCreate(&t0));
  }
  void release() {
    for (auto* v : {&kstart, &kend, &cstart, &cend}) {
      for (auto e : *v) cudaEventDestroy(e);
      v->clear();
    }
    if (t0) cudaEventDestroy(t0);
    t0 = nullptr;
  }
  PassEvents() = default;
  PassEvents(const PassEvents&) = delete;
  PassEvents& operator=(const PassEvents&) = delete;
  ~PassEvents() { release(); }
};

float ms_between(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

struct LogicalGpu {
  int phys = 0, max_blocks = 1;
  cudaStream_t stream = nullptr, copy = nullptr;
  DeviceBuffer<std::uint8_t> x, y;
  DeviceBuffer<Word> rings, import, v;
  DeviceBuffer<unsigned long long> tickets;
  PassEvents ev;
  ~LogicalGpu() {
    cudaSetDevice(phys);  // buffers and events are released on their own device
    if (stream) cudaStreamDestroy(stream);
    if (copy) cudaStreamDestroy(copy);
  }
};

class StripePipeline {
 public:
  StripePipeline(const Symbols& s, const BitLcsConfig& c, Context& ctx);
  ~StripePipeline() {
    gpus_.clear();
    cudaSetDevice(home_);
  }
  // V after all rows of `j` (not stored rows), words_of(j.x_len) words at `out`.
  void run(const PassJob& j, Word* out);
  double span_s() const { return span_s_; }  // the passes' kernels, first launch to last end

 private:
  void prepare(const StripePlan& p);
  void enqueue(const StripePlan& p, const kernel::DevJob& job);
  void copy_carries(const StripePlan& p, int g, std::int64_t r);
  void count(const StripePlan& p);

  Context& ctx_;
  int home_ = 0, sigma_ = 0, bits_ = 64, w_ = 1, warps_ = 1, spin_ns_ = 0;
  std::int64_t exchange_rows_ = 0;
  std::size_t smem_ = 0;
  double span_s_ = 0;
  std::vector<std::unique_ptr<LogicalGpu>> gpus_;
};

StripePipeline::StripePipeline(const Symbols& s, const BitLcsConfig& c, Context& ctx)
    : ctx_(ctx),
      sigma_(s.sigma),
      bits_(c.word_bits),
      w_(c.words_per_thread),
      warps_(c.warps),
      spin_ns_(c.spin_ns),
      exchange_rows_(c.exchange_rows) {
  int devices = 0, optin = 0;
  CUDA_CHECK(cudaGetDevice(&home_));
  CUDA_CHECK(cudaGetDeviceCount(&devices));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, home_));
  smem_ = fit_masks(sigma_, std::size_t(optin), bits_, warps_, w_);
  std::set<int> physical;
  for (int i = 0; i < c.gpus; ++i) {
    auto g = std::make_unique<LogicalGpu>();
    g->phys = i % devices;
    physical.insert(g->phys);
    if (i > 0)
      gpu::enable_peer_access(gpus_.back()->phys, g->phys),
          gpu::enable_peer_access(g->phys, gpus_.back()->phys);
    CUDA_CHECK(cudaSetDevice(g->phys));
    CUDA_CHECK(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&g->copy, cudaStreamNonBlocking));
    void* k = window_kernel_of(bits_, w_);
    CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_)));
    int per_sm = 0, sms = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, warps_ * 32, smem_));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g->phys));
    g->max_blocks = std::max(1, per_sm) * sms;
    gpus_.push_back(std::move(g));
  }
  CUDA_CHECK(cudaSetDevice(home_));
  // Phases are timed by events on the case's stream: opened and closed on the home device.
  {
    auto alloc = ctx_.phase("alloc");
    for (auto& g : gpus_) {
      CUDA_CHECK(cudaSetDevice(g->phys));
      g->x = DeviceBuffer<std::uint8_t>(s.x.size(), &ctx_);
      g->y = DeviceBuffer<std::uint8_t>(s.y.size(), &ctx_);
    }
    CUDA_CHECK(cudaSetDevice(home_));
  }
  auto h2d = ctx_.phase("h2d");
  for (auto& g : gpus_) {
    CUDA_CHECK(cudaSetDevice(g->phys));
    CUDA_CHECK(
        cudaMemcpyAsync(g->x.get(), s.x.data(), s.x.size(), cudaMemcpyHostToDevice, g->stream));
    CUDA_CHECK(
        cudaMemcpyAsync(g->y.get(), s.y.data(), s.y.size(), cudaMemcpyHostToDevice, g->stream));
  }
  for (auto& g : gpus_) CUDA_CHECK(cudaStreamSynchronize(g->stream));
  CUDA_CHECK(cudaSetDevice(home_));
  ctx_.set("gpus.physical", double(physical.size()));
  ctx_.set("gpus.logical", c.gpus);
  ctx_.set("words_per_thread", w_);
  ctx_.set("warps_per_block", warps_);
  ctx_.set("word_bits", bits_);
  ctx_.set("sigma", sigma_);
}

// Buffers of the pass (kept for the next pass when large enough) and their initial values:
// V all ones, rings and tickets zero (a tag 0 is never a group's).
void StripePipeline::prepare(const StripePlan& p) {
  const std::int64_t lane_words = 32 * std::int64_t(w_), per_word = 64 / bits_;
  auto grow = [&](auto& b, std::size_t n) {
    using B = std::decay_t<decltype(b)>;
    if (b.size() < n) b = B(), b = B(n, &ctx_);
  };
  {
    auto alloc = ctx_.phase("alloc");  // opened and closed on the home device
    for (int g = 0; g < p.gpus(); ++g) {
      LogicalGpu& d = *gpus_[std::size_t(g)];
      const std::int64_t local = p.first[g + 1] - p.first[g];
      CUDA_CHECK(cudaSetDevice(d.phys));
      grow(d.rings, std::size_t(local * p.ring));
      grow(d.import, std::size_t(p.ring));
      grow(d.v, std::size_t(local * lane_words / per_word));
      grow(d.tickets, std::size_t(std::max<std::int64_t>(p.launches, 1)));
      d.ev.create(p.launches);
    }
    CUDA_CHECK(cudaSetDevice(home_));
  }
  for (int g = 0; g < p.gpus(); ++g) {
    LogicalGpu& d = *gpus_[std::size_t(g)];
    const std::int64_t local = p.first[g + 1] - p.first[g];
    CUDA_CHECK(cudaSetDevice(d.phys));
    CUDA_CHECK(cudaMemsetAsync(d.rings.get(), 0, std::size_t(local * p.ring) * 8, d.stream));
    CUDA_CHECK(cudaMemsetAsync(d.import.get(), 0, std::size_t(p.ring) * 8, d.stream));
    CUDA_CHECK(
        cudaMemsetAsync(d.v.get(), 0xff, std::size_t(local * lane_words / per_word) * 8, d.stream));
    CUDA_CHECK(cudaMemsetAsync(d.tickets.get(), 0,
                               std::size_t(std::max<std::int64_t>(p.launches, 1)) * 8, d.stream));
  }
  for (int g = 0; g < p.gpus(); ++g)
    CUDA_CHECK(cudaStreamSynchronize(gpus_[std::size_t(g)]->stream));
  CUDA_CHECK(cudaSetDevice(home_));
}

// After launch r of GPU g: its last stripe's carry words of that launch into GPU g+1's
// import ring, once GPU g+1 has finished launch r−2 (kRingLag: the ring holds three launches).
void StripePipeline::copy_carries(const StripePlan& p, int g, std::int64_t r) {
  LogicalGpu &d = *gpus_[std::size_t(g)], &n = *gpus_[std::size_t(g + 1)];
  CUDA_CHECK(cudaStreamWaitEvent(d.copy, d.ev.kend[std::size_t(r)], 0));
  if (r >= kRingLag)
    CUDA_CHECK(cudaStreamWaitEvent(d.copy, n.ev.kend[std::size_t(r - kRingLag)], 0));
  CUDA_CHECK(cudaEventRecord(d.ev.cstart[std::size_t(r)], d.copy));
  const Word* last = d.rings.get() + (p.first[g + 1] - p.first[g] - 1) * p.ring;
  for (const RingRun& run : ring_runs(p.exported(g, r), p.ring))
    CUDA_CHECK(cudaMemcpyPeerAsync(n.import.get() + run.at, n.phys, last + run.at, d.phys,
                                   std::size_t(run.count) * 8, d.copy));
  CUDA_CHECK(cudaEventRecord(d.ev.cend[std::size_t(r)], d.copy));
}

void StripePipeline::enqueue(const StripePlan& p, const kernel::DevJob& job) {
  for (int g = 0; g < p.gpus(); ++g) {
    CUDA_CHECK(cudaSetDevice(gpus_[std::size_t(g)]->phys));
    CUDA_CHECK(cudaEventRecord(gpus_[std::size_t(g)]->ev.t0, gpus_[std::size_t(g)]->stream));
  }
  for (std::int64_t r = 0; r < p.launches; ++r)
    for (int g = 0; g < p.gpus(); ++g) {
      LogicalGpu& d = *gpus_[std::size_t(g)];
      CUDA_CHECK(cudaSetDevice(d.phys));
      if (g > 0)
        CUDA_CHECK(
            cudaStreamWaitEvent(d.stream, gpus_[std::size_t(g - 1)]->ev.cend[std::size_t(r)], 0));
      if (g + 1 < p.gpus() && r >= kRingLag)  // its last ring's words of launch r − 2 are sent
        CUDA_CHECK(cudaStreamWaitEvent(d.stream, d.ev.cend[std::size_t(r - kRingLag)], 0));
      CUDA_CHECK(cudaEventRecord(d.ev.kstart[std::size_t(r)], d.stream));
      if (p.active(g, r)) {
        WindowArgs a;
        a.job = job, a.stripe0 = p.first[g], a.stripes = p.first[g + 1] - p.first[g];
        a.row0 = r * p.launch_rows, a.launch_rows = p.launch_rows, a.skew = p.skew,
        a.ring_mask = p.ring - 1;
        a.import = g > 0 ? d.import.get() : nullptr;
        a.rings = d.rings.get(), a.v = d.v.get(), a.ticket = d.tickets.get() + r;
        const int blocks =
            int(std::min<std::int64_t>((a.stripes + warps_ - 1) / warps_, d.max_blocks));
        const std::uint8_t *x = d.x.get(), *y = d.y.get();
        void* args[] = {&a, &x, &y, &sigma_};
        auto mark = ctx_.profiled_launch();
        CUDA_CHECK(cudaLaunchKernel(window_kernel_of(bits_, w_), dim3(unsigned(blocks)),
                                    dim3(unsigned(warps_ * 32)), args, smem_, d.stream));
        ctx_.add("kernel_launches", 1);
      }
      CUDA_CHECK(cudaEventRecord(d.ev.kend[std::size_t(r)], d.stream));
      if (g + 1 < p.gpus()) copy_carries(p, g, r);
    }
  for (int g = 0; g < p.gpus(); ++g) {
    CUDA_CHECK(cudaSetDevice(gpus_[std::size_t(g)]->phys));
    CUDA_CHECK(cudaStreamSynchronize(gpus_[std::size_t(g)]->stream));
    CUDA_CHECK(cudaStreamSynchronize(gpus_[std::size_t(g)]->copy));
  }
}

// Per logical GPU: kernel time, outgoing copy time, idle time between its launches, and the
// pipeline's fill (start to first launch) and drain (last launch to the end of the pass).
void StripePipeline::count(const StripePlan& p) {
  std::vector<std::int64_t> first(std::size_t(p.gpus()), -1), last(std::size_t(p.gpus()), -1);
  double end_ms = 0;
  for (int g = 0; g < p.gpus(); ++g) {
    for (std::int64_t r = 0; r < p.launches; ++r)
      if (p.active(g, r))
        last[std::size_t(g)] = r,
        first[std::size_t(g)] = first[std::size_t(g)] < 0 ? r : first[std::size_t(g)];
    const PassEvents& e = gpus_[std::size_t(g)]->ev;
    if (last[std::size_t(g)] >= 0)
      end_ms =
          std::max(end_ms, double(ms_between(e.t0, e.kend[std::size_t(last[std::size_t(g)])])));
  }
  span_s_ += end_ms / 1e3;
  for (int g = 0; g < p.gpus(); ++g) {
    const PassEvents& e = gpus_[std::size_t(g)]->ev;
    CUDA_CHECK(cudaSetDevice(gpus_[std::size_t(g)]->phys));
    const std::string name = "gpu" + std::to_string(g) + ".";
    double compute = 0, peer = 0, wait = 0;
    std::int64_t prev = -1;
    for (std::int64_t r = 0; r < p.launches; ++r) {
      if (g + 1 < p.gpus()) peer += ms_between(e.cstart[std::size_t(r)], e.cend[std::size_t(r)]);
      if (!p.active(g, r)) continue;
      compute += ms_between(e.kstart[std::size_t(r)], e.kend[std::size_t(r)]);
      if (prev >= 0) wait += ms_between(e.kend[std::size_t(prev)], e.kstart[std::size_t(r)]);
      prev = r;
    }
    ctx_.add(name + "compute_s", compute / 1e3);
    ctx_.add(name + "peer_s", peer / 1e3);
    ctx_.add(name + "wait_s", wait / 1e3);
    if (first[std::size_t(g)] < 0) continue;
    ctx_.add(name + "fill_s", ms_between(e.t0, e.kstart[std::size_t(first[std::size_t(g)])]) / 1e3);
    ctx_.add(name + "drain_s",
             (end_ms - ms_between(e.t0, e.kend[std::size_t(last[std::size_t(g)])])) / 1e3);
  }
  CUDA_CHECK(cudaSetDevice(home_));
}

void StripePipeline::run(const PassJob& j, Word* out) {
  const std::int64_t per_word = 64 / bits_, stripe_words = 32 * std::int64_t(w_);
  kernel::DevJob job{};
  job.x_off = j.x_off, job.x_len = j.x_len, job.y_off = j.y_off, job.y_len = j.y_len;
  job.words = words_of(j.x_len) * per_word;
  job.stripes = (job.words + stripe_words - 1) / stripe_words;
  job.flags = j.reversed ? kernel::kReversed : 0;
  job.spin_ns = spin_ns_;
  const StripePlan p = plan_stripes(job.stripes, j.y_len, int(gpus_.size()), exchange_rows_);
  prepare(p);
  {
    auto compute = ctx_.phase("compute");
    enqueue(p, job);
    CUDA_CHECK(cudaSetDevice(home_));
  }
  count(p);
  ctx_.set("launch_rows", double(p.launch_rows));
  ctx_.set("skew_rows", double(p.skew));
  ctx_.set("launches_per_gpu", double(p.launches));
  auto d2h = ctx_.phase("d2h");
  auto* dst = reinterpret_cast<unsigned char*>(out);
  for (int g = 0; g < p.gpus(); ++g) {
    const std::int64_t begin = p.first[g] * stripe_words,
                       end = std::min(job.words, p.first[g + 1] * stripe_words);
    CUDA_CHECK(cudaSetDevice(gpus_[std::size_t(g)]->phys));
    CUDA_CHECK(cudaMemcpy(dst + begin * (bits_ / 8), gpus_[std::size_t(g)]->v.get(),
                          std::size_t(end - begin) * (bits_ / 8), cudaMemcpyDeviceToHost));
  }
  CUDA_CHECK(cudaSetDevice(home_));
}

// Big passes split over the GPUs, one after another; the rest one batch on logical GPU 0.
class MultiGpuPassRunner final : public PassRunner {
 public:
  MultiGpuPassRunner(const Symbols& s, const BitLcsConfig& c, Context& ctx,
                     std::int64_t min_stripes_per_gpu)
      : s_(s), c_(c), ctx_(ctx), pipeline_(s, c, ctx), min_stripes_(min_stripes_per_gpu) {}

  void run(const std::vector<PassJob>& jobs, std::int64_t total_words,
           std::vector<Word>& out) override {
    out.assign(std::size_t(total_words), 0);
    std::vector<PassJob> small;
    std::vector<std::int64_t> small_at;
    const std::int64_t stripe_bits = 32 * std::int64_t(c_.words_per_thread) * c_.word_bits;
    for (const PassJob& j : jobs) {
      const std::int64_t stripes = (j.x_len + stripe_bits - 1) / stripe_bits;
      if (!j.store_rows && stripes >= min_stripes_ * c_.gpus) {
        pipeline_.run(j, out.data() + j.out_off);
      } else {
        small.push_back(j);
        small_at.push_back(j.out_off);
      }
    }
    if (small.empty()) return;
    std::vector<Word> part;
    if (!single_) single_ = make_gpu_runner(s_, c_, ctx_);  // on logical GPU 0 (the home device)
    single_->run(small, lay_out(small), part);
    for (std::size_t k = 0; k < small.size(); ++k)
      std::copy_n(part.begin() + small[k].out_off, out_words(small[k]), out.begin() + small_at[k]);
  }
  double kernel_s() const override {
    return pipeline_.span_s() + (single_ ? single_->kernel_s() : 0.0);
  }

 private:
  const Symbols& s_;
  BitLcsConfig c_;
  Context& ctx_;
  StripePipeline pipeline_;
  std::unique_ptr<PassRunner> single_;
  std::int64_t min_stripes_;
};

}  // namespace

std::unique_ptr<PassRunner> make_multigpu_runner(const Symbols& s, const BitLcsConfig& c,
                                                 Context& ctx, std::int64_t min_stripes_per_gpu) {
  int home = 0;
  CUDA_CHECK(cudaGetDevice(&home));
  // The home card current again even when building the pipeline throws part-way (then no
  // destructor of StripePipeline restores it): the next repetition's events go there.
  const DeviceScope restore(home);
  return std::make_unique<MultiGpuPassRunner>(s, c, ctx, min_stripes_per_gpu);
}

}  // namespace dpgpu::bitlcs
