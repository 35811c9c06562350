// bitlcs_gpu.cu — gpu.bitparallel's driver: the GPU pass runner (one launch per batch of
// jobs) and the solve (length, or Hirschberg's reconstruction over the runner).
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bitlcs_ceiling.hpp"
#include "bitlcs_gpu.hpp"
#include "bitlcs_kernel.cuh"
#include "bitlcs_multigpu.hpp"
#include "bitlcs_pass.hpp"
#include "bitlcs_reconstruct.hpp"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"

namespace dpgpu::bitlcs {

namespace {

using gpu::DeviceBuffer;
using kernel::DevJob;

template <class L, int W>
void* kernel_of(bool any_store) {
  return any_store ? reinterpret_cast<void*>(&kernel::pass<L, W, true>)
                   : reinterpret_cast<void*>(&kernel::pass<L, W, false>);
}
void* kernel_of(int bits, int w, bool any_store) {
  using kernel::u32;
  using kernel::u64;
  if (bits == 32)
    return w == 1   ? kernel_of<u32, 1>(any_store)
           : w == 2 ? kernel_of<u32, 2>(any_store)
                    : kernel_of<u32, 4>(any_store);
  return w == 1   ? kernel_of<u64, 1>(any_store)
         : w == 2 ? kernel_of<u64, 2>(any_store)
                  : kernel_of<u64, 4>(any_store);
}

struct KernelEvents {  // before and after a batch's launch, on the solver's stream
  cudaEvent_t a = nullptr, b = nullptr;
  KernelEvents() {
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
  }
  ~KernelEvents() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  KernelEvents(const KernelEvents&) = delete;
  KernelEvents& operator=(const KernelEvents&) = delete;
};

// Slots of the carry words, job after job: per stripe but the last, one per group of 32 rows,
// or with `ring` a ring of kRingSlots (fewer when the job has fewer groups) and then one
// progress word per stripe. Returns the total.
constexpr std::int64_t kRingSlots = 64;
std::int64_t lay_out_slots(std::vector<DevJob>& dev, bool ring) {
  std::int64_t slots = 0;
  for (DevJob& d : dev) {
    const std::int64_t groups = (d.y_len + 31) / 32;
    d.slot_off = slots;
    d.ring = ring && groups > kRingSlots ? kRingSlots : 0;
    slots += (d.stripes - 1) * (d.ring > 0 ? d.ring : groups);
    d.progress_off = slots;
    if (d.ring > 0) slots += d.stripes;
  }
  return slots;
}

class GpuPassRunner final : public PassRunner {
 public:
  GpuPassRunner(const Symbols& s, const BitLcsConfig& c, Context& ctx)
      : ctx_(ctx),
        stream_(static_cast<cudaStream_t>(ctx.stream())),
        sigma_(s.sigma),
        spin_ns_(c.spin_ns),
        carry_ring_(c.carry_ring) {
    int dev = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    // Masks take sigma × W × 32 lane words per warp: fewer warps, then fewer words, until they fit.
    w_ = c.words_per_thread;
    warps_ = c.warps;
    bits_ = c.word_bits;
    smem_ = fit_masks(sigma_, std::size_t(optin), bits_, warps_, w_);
    ctx_.set("words_per_thread", w_);
    ctx_.set("warps_per_block", warps_);
    ctx_.set("word_bits", bits_);
    ctx_.set("sigma", sigma_);
    for (bool any_store : {false, true}) {  // the two kernels differ in registers
      void* k = kernel_of(bits_, w_, any_store);
      CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_)));
      int per_sm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, warps_ * 32, smem_));
      max_blocks_[any_store] = std::max(1, per_sm) * sms_;
    }
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

  void run(const std::vector<PassJob>& jobs, std::int64_t total_words,
           std::vector<Word>& out) override {
    std::vector<DevJob> dev;
    if (jobs.size() > (std::size_t(1) << 30))
      throw std::runtime_error("gpu.bitparallel: too many jobs in one batch");
    std::int64_t stripes = 0;
    bool any_store = false;
    const std::int64_t stripe_words = 32 * std::int64_t(w_), per_word = 64 / bits_;
    for (const PassJob& j : jobs) {
      DevJob d{};
      d.x_off = j.x_off, d.x_len = j.x_len, d.y_off = j.y_off, d.y_len = j.y_len;
      d.words = words_of(j.x_len) * per_word;
      d.stripes = (d.words + stripe_words - 1) / stripe_words;
      d.stripe_base = stripes;
      d.out_off = j.out_off;
      d.flags = (j.reversed ? kernel::kReversed : 0) | (j.store_rows ? kernel::kStoreRows : 0);
      d.spin_ns = spin_ns_;
      any_store = any_store || j.store_rows;
      stripes += d.stripes;
      dev.push_back(d);
    }
    if (stripes >= (std::int64_t(1) << 31))
      throw std::runtime_error("gpu.bitparallel: more than 2^31 stripes in one batch");
    const int blocks =
        int(std::min<std::int64_t>((stripes + warps_ - 1) / warps_, max_blocks_[any_store]));
    // Rings only when every stripe of the batch is resident at once (DevJob::ring).
    const std::int64_t slots =
        lay_out_slots(dev, carry_ring_ && stripes <= std::int64_t(blocks) * warps_);
    {
      auto alloc = ctx_.phase("alloc");
      grow(jobs_, dev.size());
      grow(slots_, std::size_t(std::max<std::int64_t>(slots, 1)));
      grow(out_, std::size_t(std::max<std::int64_t>(total_words, 1)));
    }
    {
      auto h2d = ctx_.phase("h2d");
      CUDA_CHECK(cudaMemcpyAsync(jobs_.get(), dev.data(), dev.size() * sizeof(DevJob),
                                 cudaMemcpyHostToDevice, stream_));
    }
    {
      auto compute = ctx_.phase("compute");
      // Tags of the slots count from 1: zero means "not yet written".
      CUDA_CHECK(cudaMemsetAsync(slots_.get(), 0, std::size_t(std::max<std::int64_t>(slots, 1)) * 8,
                                 stream_));
      CUDA_CHECK(cudaMemsetAsync(ticket_.get(), 0, sizeof(unsigned long long), stream_));
      auto mark = ctx_.profiled_launch();
      const int njobs = int(dev.size());
      CUDA_CHECK(cudaEventRecord(ev_.a, stream_));
      launch(kernel_of(bits_, w_, any_store), blocks, njobs, stripes);
      CUDA_CHECK(cudaEventRecord(ev_.b, stream_));
      ctx_.add("kernel_launches", 1);
      ctx_.add("stripes", double(stripes));
    }
    auto d2h = ctx_.phase("d2h");
    out.resize(std::size_t(total_words));
    CUDA_CHECK(cudaMemcpyAsync(out.data(), out_.get(), std::size_t(total_words) * 8,
                               cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, ev_.a, ev_.b));
    kernel_s_ += ms / 1e3;
  }
  double kernel_s() const override { return kernel_s_; }

 private:
  template <class T>
  void grow(DeviceBuffer<T>& b, std::size_t count) {
    if (b.size() < count) {
      b = DeviceBuffer<T>();  // free first: peak is the larger of the two, not their sum
      b = DeviceBuffer<T>(count, &ctx_);
    }
  }
  void launch(void* k, int blocks, int njobs, std::int64_t stripes) {
    const DevJob* jobs = jobs_.get();
    const std::uint8_t *x = x_.get(), *y = y_.get();
    Word *slots = slots_.get(), *out = out_.get();
    unsigned long long* ticket = ticket_.get();
    void* args[] = {&jobs, &njobs, &stripes, &x, &y, &sigma_, &slots, &ticket, &out};
    CUDA_CHECK(cudaLaunchKernel(k, dim3(unsigned(blocks)), dim3(unsigned(warps_ * 32)), args, smem_,
                                stream_));
  }

  Context& ctx_;
  cudaStream_t stream_;
  int sigma_, spin_ns_ = 0;
  bool carry_ring_ = false;
  int w_ = 1, warps_ = 1, bits_ = 64, sms_ = 1;
  int max_blocks_[2] = {1, 1};  // [any_store]
  std::size_t smem_ = 0;
  DeviceBuffer<std::uint8_t> x_, y_;
  DeviceBuffer<unsigned long long> ticket_;
  DeviceBuffer<DevJob> jobs_;
  DeviceBuffer<Word> slots_, out_;
  KernelEvents ev_;
  double kernel_s_ = 0;
};

void validate(const BitLcsConfig& c) {
  if (auto why = why_invalid(c); !why.empty()) throw InputError("gpu.bitparallel: " + why);
}

// The declared ceiling of this configuration on the current card (bitlcs_ceiling.hpp) and the
// share of it the passes' kernels reached over `cells` DP cells.
void set_ceiling(Context& ctx, const BitLcsConfig& c, double cells, double kernel_s) {
  int dev = 0, sms = 0, khz = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
  ctx.set("kernel_s", kernel_s);
  if (sms <= 0 || khz <= 0) return;  // no peak clock reported: no ceiling, rather than a wrong one
  const auto& k = ctx.counters();
  const int w = int(k.count("words_per_thread") ? k.at("words_per_thread") : c.words_per_thread);
  const int cards = int(k.count("gpus.physical") ? k.at("gpus.physical") : 1);  // not logical
  const double ceiling = ceiling_cups(cards, sms, khz * 1e3, c.word_bits, w);
  ctx.set("ops_per_lane_word", ops_per_lane_word(c.word_bits, w));
  ctx.set("ceiling_cups", ceiling);
  // Above 1 would mean the declared rate is wrong: left as measured (a ratio's test flags it).
  if (kernel_s > 0) ctx.set("ceiling_share", cells / kernel_s / ceiling);
}

}  // namespace

std::unique_ptr<PassRunner> make_gpu_runner(const Symbols& s, const BitLcsConfig& c, Context& ctx) {
  validate(c);
  return std::make_unique<GpuPassRunner>(s, c, ctx);
}

BitLcsResult solve(std::string_view a, std::string_view b, const BitLcsConfig& c, Context& ctx) {
  validate(c);
  const std::string_view x = a.size() >= b.size() ? a : b;  // along the bits
  const std::string_view y = a.size() >= b.size() ? b : a;  // along the steps
  BitLcsResult r;
  ctx.set("kernel_launches", 0);
  if (y.empty()) {
    if (c.reconstruct) r.subsequence = std::string();
    return r;
  }
  const Symbols sym = encode(x, y);
  std::unique_ptr<PassRunner> owned =
      c.gpus > 1 || c.windowed
          ? make_multigpu_runner(sym, c, ctx, c.reconstruct ? 64 : 1)  // length: always split
          : std::make_unique<GpuPassRunner>(sym, c, ctx);
  PassRunner& runner = *owned;
  if (!c.reconstruct) {
    r.length = length(runner, std::int64_t(x.size()), std::int64_t(y.size()));
    set_ceiling(ctx, c, double(x.size()) * double(y.size()), runner.kernel_s());
    return r;
  }
  ReconstructStats st;
  r.subsequence = reconstruct(x, y, sym, runner, c.leaf_rows, &st);
  r.length = std::int64_t(r.subsequence->size());
  ctx.set("levels", st.levels);
  ctx.set("leaves", double(st.leaves));
  ctx.set("leaf_bytes", double(st.leaf_words) * 8);
  ctx.set("cells_computed", st.cells);
  set_ceiling(ctx, c, double(st.cells), runner.kernel_s());
  return r;
}

}  // namespace dpgpu::bitlcs
