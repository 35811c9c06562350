// tsp_multigpu.cu — gpu.wavefront for the TSP over several GPUs: every Held-Karp layer split
// across the logical GPUs (tsp_split.hpp), each GPU's share computed by
// tsp_multigpu_kernel.cuh, which reads the previous layer's shares where they are (its own,
// or another card's through peer access). One host thread per logical GPU runs its layers:
// before layer k it makes its stream wait (on the GPU) for every GPU's layer k − 1, launches
// its share, and pushes the share's argmins through its own HostOffload (pinned ring, copy
// stream) into one host array; a barrier per layer makes every "layer k − 1 done" event
// recorded before any GPU waits on it. The threads also keep the host draining the GPUs'
// pinned rings in parallel. The calling thread's current device is never changed for longer
// than a scope (OnDevice), so the harness's device is current again at return.
#include "tsp_multigpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "peer_access.cuh"
#include "dpgpu/error.hpp"
#include "host_array.hpp"
#include "host_offload.cuh"
#include "tsp/subset_rank.hpp"
#include "tsp_adapter.cuh"  // tsp_adapter_detail::host_bytes_available, gib
#include "tsp_multigpu_kernel.cuh"
#include "tsp_split.hpp"

namespace dpgpu::wavefront {
namespace {

using gpu::DeviceBuffer;

// `d` current for a scope; the device current before it is current again after it.
class OnDevice {
 public:
  explicit OnDevice(int d) {
    CUDA_CHECK(cudaGetDevice(&before_));
    CUDA_CHECK(cudaSetDevice(d));
  }
  ~OnDevice() { cudaSetDevice(before_); }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;

 private:
  int before_ = 0;
};

// The device current at construction is current again at destruction (declared first in a
// solve, so destroyed last: after every buffer, stream and event of the other devices).
struct HomeDevice {
  int id = 0;
  HomeDevice() { CUDA_CHECK(cudaGetDevice(&id)); }
  ~HomeDevice() { cudaSetDevice(id); }
};

// Peer access from card `from` to card `to`. Without it a kernel cannot read the other card's
// share, so the solve is refused.
void enable_peer(int from, int to) {
  if (!gpu::enable_peer_access(from, to))
    throw std::runtime_error("gpu.wavefront: GPU " + std::to_string(from) + " cannot access GPU " +
                             std::to_string(to) +
                             "'s memory (no peer access), which the TSP over several GPUs "
                             "needs to read the previous layer's shares");
}

class Barrier {
 public:
  explicit Barrier(int n) : n_(n) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(m_);
    const std::uint64_t gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return gen_ != gen; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_, count_ = 0;
  std::uint64_t gen_ = 0;
};

float ms_between(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

// One logical GPU: its stream, its share of two cost layers (two-ended: even layers from the
// front, odd from the back), its argmin staging (the same), inputs, offload and events.
template <class Cost>
struct PartGpu {
  int index = 0, phys = 0, cap = 1;
  std::uint64_t pair = 0;  // cells (and argmin bytes) of its largest two adjacent shares
  cudaStream_t stream = nullptr;
  cudaStream_t side = nullptr;  // argmin pushes: waits for a layer's kernel, not the next one's
  DeviceBuffer<Cost> ring, arcs;
  DeviceBuffer<std::uint32_t> binom;
  DeviceBuffer<std::uint8_t> staging;
  DeviceBuffer<unsigned long long> exchange;
  std::unique_ptr<HostOffload> offload;
  std::vector<cudaEvent_t> start, end;         // per layer k (index k): its share's kernel
  cudaEvent_t copied[2] = {nullptr, nullptr};  // argmins of the last even / odd layer copied

  PartGpu(int i, int p) : index(i), phys(p) {}
  PartGpu(const PartGpu&) = delete;
  PartGpu& operator=(const PartGpu&) = delete;
  ~PartGpu() {  // everything released on its own device; buffers after this body
    cudaSetDevice(phys);
    if (stream) cudaStreamSynchronize(stream);
    if (side) cudaStreamSynchronize(side);
    offload.reset();
    for (auto* v : {&start, &end})
      for (auto e : *v)
        if (e) cudaEventDestroy(e);
    for (auto e : copied)
      if (e) cudaEventDestroy(e);
    if (stream) cudaStreamDestroy(stream);
    if (side) cudaStreamDestroy(side);
  }
  Cost* slot(const TspSplit& s, int k) const {
    return k % 2 == 0 ? ring.get() : ring.get() + (pair - s.cells(k, index));
  }
  std::uint8_t* argmins(const TspSplit& s, int k) const {
    return k % 2 == 0 ? staging.get() : staging.get() + (pair - s.cells(k, index));
  }
};

template <class Cost, class Mask, bool kArgmin>
const void* share_kernel() {
  return reinterpret_cast<const void*>(tsp_multi::held_karp_share<Cost, Mask, kArgmin>);
}

template <class Cost>
class MultiSolve {
 public:
  MultiSolve(const tsp::Instance& x, const TspWavefrontConfig& c, Context& ctx)
      : x_(x),
        c_(c),
        ctx_(ctx),
        s_{x.n - 1, c.gpus},
        need_(tsp_multi_bytes(x.n, int(sizeof(Cost)), c)),
        slot_bytes_(tsp_multi_slot_bytes(s_, c)) {}

  TspWavefrontResult run() {
    open();
    upload();
    layers();
    finish();
    if (c_.reconstruct) {
      auto phase = ctx_.phase("traceback");
      tour_ = tsp_split_tour(s_, host_.get(), best_last());
    }
    report();
    TspWavefrontResult out;
    out.cell_bytes = int(sizeof(Cost));
    out.cost = std::int64_t(last_[std::size_t(best_last())]) + x_.arc(best_last() + 1, 0);
    out.tour = std::move(tour_);
    return out;
  }

 private:
  void check_fits() const;
  void open();
  void allocate(PartGpu<Cost>& g);
  void upload();
  void layers();
  void work(PartGpu<Cost>& g, Barrier& sync);
  void step(PartGpu<Cost>& g, int k);
  template <class Mask, bool kArgmin>
  void launch(PartGpu<Cost>& g, int k, std::uint64_t count);
  void push(PartGpu<Cost>& g, int k);
  void finish();
  void report();
  void report_gpu(PartGpu<Cost>& g, std::vector<double>& layer_s);
  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = e;
    failed_ = true;
  }
  const void* kernel() const {
    if (s_.m <= 32)
      return c_.reconstruct ? share_kernel<Cost, std::uint32_t, true>()
                            : share_kernel<Cost, std::uint32_t, false>();
    return c_.reconstruct ? share_kernel<Cost, std::uint64_t, true>()
                          : share_kernel<Cost, std::uint64_t, false>();
  }
  int best_last() const {
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    int at = 0;
    for (int p = 0; p < s_.m; ++p) {
      const std::int64_t c = std::int64_t(last_[std::size_t(p)]) + x_.arc(p + 1, 0);
      if (c < best) best = c, at = p;
    }
    return at;
  }

  HomeDevice home_;  // first: restored after everything below is released
  const tsp::Instance& x_;
  TspWavefrontConfig c_;
  Context& ctx_;
  TspSplit s_;
  TspMultiBytes need_;
  std::uint64_t slot_bytes_;
  int physical_ = 1;
  HostArray host_;  // every layer's argmins (reconstruct)
  std::vector<std::unique_ptr<PartGpu<Cost>>> gpus_;
  std::vector<Cost> last_;
  std::vector<std::int32_t> tour_;
  std::mutex error_mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

// Host memory for the argmins and staging, and each card's logical GPUs' shares, before
// anything is allocated: a refusal names the figures.
template <class Cost>
void MultiSolve<Cost>::check_fits() const {
  using namespace tsp_adapter_detail;
  const std::string who =
      "gpu.wavefront: n = " + std::to_string(x_.n) + " over " + std::to_string(c_.gpus) + " GPUs";
  const std::uint64_t host = host_bytes_available();
  if (need_.host > host)
    throw OutOfMemory(who + " needs " + std::to_string(need_.host) + " bytes (" + gib(need_.host) +
                      ") of host memory (argmins " + std::to_string(need_.argmins) +
                      " B, pinned staging " + std::to_string(need_.staging) +
                      " B; reconstruct: false needs no argmins), " + std::to_string(host) +
                      " bytes (" + gib(host) + ") available");
  for (int p = 0; p < physical_; ++p) {
    std::uint64_t need = 0;
    std::string which;
    for (const auto& g : gpus_)
      if (g->phys == p) {
        need += need_.gpu[std::size_t(g->index)].total();
        which += (which.empty() ? "" : ", ") + std::to_string(g->index);
      }
    std::size_t free = 0, total = 0;
    {
      OnDevice on(p);
      CUDA_CHECK(cudaMemGetInfo(&free, &total));
    }
    if (need > free)
      throw OutOfMemory(who + ": logical GPU(s) " + which + " on card " + std::to_string(p) +
                        " need " + std::to_string(need) + " bytes (" + gib(need) +
                        ") of device memory, " + std::to_string(free) + " bytes (" + gib(free) +
                        ") free of " + gib(total));
  }
}

template <class Cost>
void MultiSolve<Cost>::open() {
  int devices = 0;
  CUDA_CHECK(cudaGetDeviceCount(&devices));
  for (int i = 0; i < c_.gpus; ++i)
    gpus_.push_back(std::make_unique<PartGpu<Cost>>(i, i % devices));
  physical_ = std::min(devices, c_.gpus);
  check_fits();
  auto phase = ctx_.phase("alloc");  // opened and closed on the home device
  for (int a = 0; a < physical_; ++a)
    for (int b = 0; b < physical_; ++b) enable_peer(a, b);
  if (c_.reconstruct) host_ = host_array(need_.argmins, "the argmins of every layer");
  for (auto& g : gpus_) allocate(*g);
}

template <class Cost>
void MultiSolve<Cost>::allocate(PartGpu<Cost>& g) {
  OnDevice on(g.phys);
  CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&g.side, cudaStreamNonBlocking));
  for (auto* v : {&g.start, &g.end}) {
    v->assign(std::size_t(s_.m) + 1, nullptr);
    for (int k = 1; k <= s_.m; ++k) CUDA_CHECK(cudaEventCreate(&(*v)[std::size_t(k)]));
  }
  for (auto& e : g.copied) CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  g.pair = s_.pair_cells(g.index);
  g.ring = DeviceBuffer<Cost>(std::size_t(g.pair), &ctx_);
  g.arcs = DeviceBuffer<Cost>(std::size_t(s_.m) * std::size_t(s_.m), &ctx_);
  g.binom = DeviceBuffer<std::uint32_t>(tsp_multi::kBinomWords, &ctx_);
  g.exchange = DeviceBuffer<unsigned long long>(1, &ctx_);
  if (c_.reconstruct) {
    g.staging = DeviceBuffer<std::uint8_t>(std::size_t(g.pair), &ctx_);
    g.offload =
        std::make_unique<HostOffload>(std::size_t(c_.offload_slots), slot_bytes_, host_.get());
  }
  const void* fn = kernel();
  int sms = 0, per_sm = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g.phys));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, c_.block,
                                                           tsp_multi::shared_bytes<Cost>(s_.m)));
  if (per_sm == 0)
    throw InputError("gpu.wavefront: parameter 'block' = " + std::to_string(c_.block) +
                     " cannot be launched by the multi-GPU Held-Karp kernel");
  g.cap = std::max(1, sms * per_sm * c_.waves);
}

// Distances (arc c → j at j·m + c), binomials, and each GPU's share of layer 1
// (rank({j}) = j: the cost of 0 → j) into the slot of layer 1; "layer 1 done" events.
template <class Cost>
void MultiSolve<Cost>::upload() {
  auto phase = ctx_.phase("h2d");
  const int m = s_.m;
  std::vector<Cost> into(std::size_t(m) * std::size_t(m));
  std::vector<Cost> first(static_cast<std::size_t>(m));
  std::vector<std::uint32_t> binom(tsp_multi::kBinomWords, 0);
  for (int j = 0; j < m; ++j) {
    first[std::size_t(j)] = static_cast<Cost>(x_.arc(0, j + 1));
    for (int c = 0; c < m; ++c)
      into[std::size_t(j) * std::size_t(m) + std::size_t(c)] =
          static_cast<Cost>(x_.arc(c + 1, j + 1));
  }
  for (int c = 0; c < tsp_multi::kBinomRows; ++c)
    for (int i = 0; i < tsp_multi::kBinomRows; ++i)
      binom[std::size_t(c) * tsp_multi::kBinomRows + std::size_t(i)] =
          static_cast<std::uint32_t>(tsp::subsets::kBinomials(c, i));
  for (auto& gp : gpus_) {
    PartGpu<Cost>& g = *gp;
    OnDevice on(g.phys);
    CUDA_CHECK(cudaMemcpyAsync(g.arcs.get(), into.data(), g.arcs.bytes(), cudaMemcpyHostToDevice,
                               g.stream));
    CUDA_CHECK(cudaMemcpyAsync(g.binom.get(), binom.data(), g.binom.bytes(), cudaMemcpyHostToDevice,
                               g.stream));
    CUDA_CHECK(cudaMemsetAsync(g.exchange.get(), 0, g.exchange.bytes(), g.stream));
    const std::uint64_t lo = s_.lo(1, g.index), n = s_.subsets(1, g.index);
    if (n > 0)
      CUDA_CHECK(cudaMemcpyAsync(g.slot(s_, 1), first.data() + lo, std::size_t(n) * sizeof(Cost),
                                 cudaMemcpyHostToDevice, g.stream));
    CUDA_CHECK(cudaEventRecord(g.start[1], g.stream));
    CUDA_CHECK(cudaEventRecord(g.end[1], g.stream));
  }
  for (auto& g : gpus_) CUDA_CHECK(cudaStreamSynchronize(g->stream));
}

// Layers 2..m: a thread per logical GPU; a failure (deadline, CUDA error) stops every thread
// at the next layer and is rethrown here.
template <class Cost>
void MultiSolve<Cost>::layers() {
  auto phase = ctx_.phase("compute");
  Barrier sync(c_.gpus);
  std::vector<std::thread> pool;
  for (auto& g : gpus_) pool.emplace_back([this, &sync, gp = g.get()] { work(*gp, sync); });
  for (auto& t : pool) t.join();
  if (error_) std::rethrow_exception(error_);
}

template <class Cost>
void MultiSolve<Cost>::work(PartGpu<Cost>& g, Barrier& sync) {
  try {
    CUDA_CHECK(cudaSetDevice(g.phys));  // this thread's own current device
  } catch (...) {
    fail(std::current_exception());
  }
  for (int k = 2; k <= s_.m; ++k) {
    try {
      if (!failed_) {
        if (g.index == 0) ctx_.check_deadline();
        step(g, k);
      }
    } catch (...) {
      fail(std::current_exception());
    }
    sync.arrive_and_wait();  // every GPU's "layer k done" recorded before layer k + 1 waits
  }
  try {
    if (!failed_ && c_.reconstruct) push(g, s_.m);
    CUDA_CHECK(cudaStreamSynchronize(g.stream));
    CUDA_CHECK(cudaStreamSynchronize(g.side));
  } catch (...) {
    fail(std::current_exception());
  }
}

// Layer k on GPU g: wait for every GPU's layer k − 1 (and for this GPU's argmins of layer
// k − 2, whose staging layer k reuses), launch the share, then push the argmins of layer
// k − 1 (their copies overlap this layer's kernel); the host is one layer behind the GPU.
template <class Cost>
void MultiSolve<Cost>::step(PartGpu<Cost>& g, int k) {
  for (auto& o : gpus_)
    if (o.get() != &g) CUDA_CHECK(cudaStreamWaitEvent(g.stream, o->end[std::size_t(k - 1)], 0));
  if (c_.reconstruct && k >= 4) CUDA_CHECK(cudaStreamWaitEvent(g.stream, g.copied[k % 2], 0));
  CUDA_CHECK(cudaEventRecord(g.start[std::size_t(k)], g.stream));
  const std::uint64_t count = s_.subsets(k, g.index);
  if (count > 0) {
    if (s_.m <= 32)
      c_.reconstruct ? launch<std::uint32_t, true>(g, k, count)
                     : launch<std::uint32_t, false>(g, k, count);
    else
      c_.reconstruct ? launch<std::uint64_t, true>(g, k, count)
                     : launch<std::uint64_t, false>(g, k, count);
  }
  CUDA_CHECK(cudaEventRecord(g.end[std::size_t(k)], g.stream));
  if (c_.reconstruct && k >= 3) push(g, k - 1);
  CUDA_CHECK(cudaEventSynchronize(g.end[std::size_t(k - 1)]));
}

template <class Cost>
template <class Mask, bool kArgmin>
void MultiSolve<Cost>::launch(PartGpu<Cost>& g, int k, std::uint64_t count) {
  tsp_multi::LayerParts<Cost> prev;
  prev.gpus = s_.gpus;
  for (int o = 0; o < s_.gpus; ++o) {
    prev.part[o] = gpus_[std::size_t(o)]->slot(s_, k - 1);
    prev.lo[o] = static_cast<std::uint32_t>(s_.lo(k - 1, o));
  }
  prev.lo[s_.gpus] = static_cast<std::uint32_t>(s_.lo(k - 1, s_.gpus));
  const std::uint64_t blocks =
      std::min<std::uint64_t>((count + c_.block - 1) / c_.block, std::uint64_t(g.cap));
  tsp_multi::held_karp_share<Cost, Mask, kArgmin>
      <<<static_cast<unsigned>(blocks), c_.block, tsp_multi::shared_bytes<Cost>(s_.m), g.stream>>>(
          prev, g.slot(s_, k), kArgmin ? g.argmins(s_, k) : nullptr, g.arcs.get(), g.binom.get(),
          s_.m, k, static_cast<std::uint32_t>(s_.lo(k, g.index)), static_cast<std::uint32_t>(count),
          g.index, g.exchange.get());
  CUDA_CHECK_LAUNCH();
}

// Layer k's share of argmins in slot-sized pieces to their place in the host array, queued on
// the side stream behind layer k's kernel only (a push records its "produced" event on the
// stream it is given, and the compute stream already holds layer k + 1); "copied" marked
// once all pieces are queued (layer k + 2 waits for it before reusing the staging).
template <class Cost>
void MultiSolve<Cost>::push(PartGpu<Cost>& g, int k) {
  const std::uint64_t bytes = s_.cells(k, g.index);
  const std::uint8_t* src = g.argmins(s_, k);
  CUDA_CHECK(cudaStreamWaitEvent(g.side, g.end[std::size_t(k)], 0));
  for (std::uint64_t off = 0; off < bytes; off += slot_bytes_)
    g.offload->push(src + off, std::size_t(std::min(slot_bytes_, bytes - off)),
                    std::size_t(s_.argmin_offset(k, g.index) + off), g.side);
  g.offload->mark(g.copied[k % 2]);
}

// The full set's m costs (layer m has one subset, on the GPU owning rank 0), and every
// pinned ring drained into the host array (a thread per GPU).
template <class Cost>
void MultiSolve<Cost>::finish() {
  auto phase = ctx_.phase("d2h");
  const PartGpu<Cost>& owner = *gpus_[std::size_t(s_.owner(s_.m, 0))];
  last_.resize(std::size_t(s_.m));
  {
    OnDevice on(owner.phys);
    CUDA_CHECK(cudaMemcpy(last_.data(), owner.slot(s_, s_.m), last_.size() * sizeof(Cost),
                          cudaMemcpyDeviceToHost));
  }
  if (!c_.reconstruct) return;
  std::vector<std::thread> pool;
  for (auto& g : gpus_)
    pool.emplace_back([this, gp = g.get()] {
      try {
        CUDA_CHECK(cudaSetDevice(gp->phys));  // this thread's own current device
        gp->offload->finish();
      } catch (...) {
        fail(std::current_exception());
      }
    });
  for (auto& t : pool) t.join();
  if (error_) std::rethrow_exception(error_);
}

template <class Cost>
void MultiSolve<Cost>::report_gpu(PartGpu<Cost>& g, std::vector<double>& layer_s) {
  const std::string p = "gpu" + std::to_string(g.index) + ".";
  OnDevice on(g.phys);
  double compute = 0;
  for (int k = 2; k <= s_.m; ++k) {
    const double s = ms_between(g.start[std::size_t(k)], g.end[std::size_t(k)]) / 1e3;
    compute += s;
    layer_s[std::size_t(k - 2)] = std::max(layer_s[std::size_t(k - 2)], s);
  }
  const double span = ms_between(g.start[2], g.end[std::size_t(s_.m)]) / 1e3;
  unsigned long long reads = 0;
  CUDA_CHECK(cudaMemcpy(&reads, g.exchange.get(), sizeof reads, cudaMemcpyDeviceToHost));
  ctx_.set(p + "compute_s", compute);
  ctx_.set(p + "idle_s", std::max(0.0, span - compute));
  ctx_.set(p + "exchange_bytes", double(reads) * double(sizeof(Cost)));
  ctx_.set(p + "device_bytes", double(need_.gpu[std::size_t(g.index)].total()));
}

template <class Cost>
void MultiSolve<Cost>::report() {
  std::vector<double> layer_s(std::size_t(s_.m - 1), 0.0);
  double launches = 0;
  for (auto& g : gpus_) {
    report_gpu(*g, layer_s);
    for (int k = 2; k <= s_.m; ++k) launches += s_.subsets(k, g->index) > 0 ? 1 : 0;
  }
  if (ctx_.series_wanted())
    for (std::size_t s = 0; s < layer_s.size(); ++s) ctx_.series("diagonal_time_s", s, layer_s[s]);
  double bytes = 0, chunks = 0, waits = 0, wait_s = 0;
  for (auto& g : gpus_)
    if (g->offload) {  // HostOffload reports into a Context: one scratch Context per GPU
      Context scratch(Backend::Cpu, Context::Clock::time_point::max());
      g->offload->report(scratch);
      const auto& k = scratch.counters();
      bytes += k.at("bytes_offloaded"), chunks += k.at("offload_chunks");
      waits += k.at("offload_host_waits"), wait_s += k.at("offload_wait_s");
    }
  ctx_.set("bytes_offloaded", bytes);
  ctx_.set("offload_chunks", chunks);
  ctx_.set("offload_host_waits", waits);
  ctx_.set("offload_wait_s", wait_s);
  ctx_.set("diagonals", double(s_.m - 1));
  ctx_.set("kernel_launches", launches);
  ctx_.set("host_bytes", double(need_.host));
  ctx_.set("argmin_bytes", double(need_.argmins));
  ctx_.set("grid_blocks_cap", double(gpus_.front()->cap));
  ctx_.set("gpus.logical", double(c_.gpus));
  ctx_.set("gpus.physical", double(physical_));
}

}  // namespace

TspWavefrontResult tsp_wavefront_multi(const tsp::Instance& x, const TspWavefrontConfig& config,
                                       Context& ctx) {
  if (tsp::cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max())
    return MultiSolve<std::int32_t>(x, config, ctx).run();
  return MultiSolve<std::int64_t>(x, config, ctx).run();
}

}  // namespace dpgpu::wavefront
