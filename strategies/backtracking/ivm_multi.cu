// ivm_multi.cu — gpu.ivm over G logical GPUs (parameter `gpus`; logical g runs on visible
// device g % cudaGetDeviceCount(), so 2 or 4 logical GPUs also run on one card).
//
// Each GPU holds T explorers over its own share of [0, m!) (the exact partition into G·T
// parts, GPU g taking parts gT..gT+T-1) and runs the one-GPU loop on its own stream: a round
// is TreeExplore then the lengths reduction and a small report copied to pinned memory
// (totals and the GPU's bound); a triggered round is followed by the intra-GPU work-stealing
// phase (the same CUDA graph as on one GPU). One host thread drives every GPU, polling each
// round's completion event, so all decisions below are taken by one thread, in order.
//
// Across GPUs (protocol):
// - A GPU whose report says no interval is left (active = 0) is dry: it gets no new round.
// - When a GPU with work ends a round and a GPU is dry, the host enqueues on the victim's
//   stream give_halves (each explorer's right half, as stealWork) and a peer copy of those
//   T intervals into the thief's import buffer, then an event; the thief's stream waits on
//   that event, take_intervals installs them, and the thief gets a new round.
// - Bounds: the host keeps the least bound any report showed and lowers every GPU's
//   incumbent to it (atomicMin kernel) before that GPU's next round; within a GPU the bound
//   spreads as on one card. With `initial_ub: optimal` the bound never moves, and the nodes
//   counted equal one GPU's (a node is counted by the explorer whose interval holds its
//   first leaf, wherever that interval went).
// - Termination: leaves move only by operations the host enqueued, always ahead of the
//   receiving GPU's next report; a giver is always given a new round. So when no GPU has a
//   round in flight and every GPU's last report said active = 0, no leaf is left anywhere
//   (not in flight either): the host stops. No device-side flag, no race.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "peer_access.cuh"
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
using Steady = std::chrono::steady_clock;

struct Report {  // what the host reads after each round of one GPU
  K::Totals totals;
  unsigned long long bound;
};

struct SelectDevice {  // first member of a Gpu: what follows is created on that device
  int device;
  explicit SelectDevice(int d) : device(d) { CUDA_CHECK(cudaSetDevice(d)); }
};

struct PlainEvent {  // an event without timing (completion polling, cross-GPU ordering)
  cudaEvent_t e = nullptr;
  PlainEvent() { CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming)); }
  ~PlainEvent() { cudaEventDestroy(e); }
  PlainEvent(const PlainEvent&) = delete;
  PlainEvent& operator=(const PlainEvent&) = delete;
};

// Last member of a Gpu, so destroyed first: queued work drains before any buffer is freed.
struct OwnStream {
  int device;
  cudaStream_t s = nullptr;
  explicit OwnStream(int d) : device(d) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  }
  ~OwnStream() {
    cudaSetDevice(device);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
  OwnStream(const OwnStream&) = delete;
  OwnStream& operator=(const OwnStream&) = delete;
};

// One logical GPU: its explorers' arrays, its incumbent, its report, its timers, its stream.
template <class Cost, class Explorer>
struct Gpu {
  SelectDevice on;
  DeviceBuffer<Explorer> state;
  DeviceBuffer<std::uint64_t> pos, end, len, xpos, xend;  // x*: intervals given / taken
  DeviceBuffer<std::uint8_t> fresh, selected;
  DeviceBuffer<int> victim;
  DeviceBuffer<Cost> dist;
  DeviceBuffer<IncumbentState> inc;
  DeviceBuffer<K::Totals> totals;
  DeviceBuffer<unsigned long long> counters;  // [0] nodes, [1] steals within this GPU
  PinnedBuffer<Report> report{1};
  PinnedBuffer<IncumbentState> h_inc{1};
  PinnedBuffer<unsigned long long> h_counters{2};
  EventPair explore_ev, steal_ev, ws_ev, peer_ev;
  PlainEvent done, given;
  WorkStealingGraph ws_graph;
  OwnStream stream;
  // Host side (the polling thread only).
  bool busy = false, dry = false, ws_pending = false, peer_pending = false;
  Steady::time_point dry_since{};
  unsigned long long bound = 0;  // this GPU's bound as last reported or lowered
  double explore_s = 0, steal_s = 0, peer_s = 0, wait_s = 0, idle_sum = 0;
  std::uint64_t launches = 0, ws_phases = 0, gives = 0, takes = 0, checks = 0;
  Intervals before;  // check_intervals: the intervals at the round's start

  Gpu(int device, int T, int n, Context& ctx)
      : on(device),
        state(T, &ctx),
        pos(T, &ctx),
        end(T, &ctx),
        len(T, &ctx),
        xpos(T, &ctx),
        xend(T, &ctx),
        fresh(T, &ctx),
        selected(T, &ctx),
        victim(T, &ctx),
        dist(std::size_t(n) * n, &ctx),
        inc(1, &ctx),
        totals(1, &ctx),
        counters(2, &ctx),
        stream(device) {}
  void use() const { CUDA_CHECK(cudaSetDevice(on.device)); }
};

template <class Cost, class Explorer>
class MultiSearch {
 public:
  MultiSearch(const tsp::Instance& x, const IvmConfig& c, std::int64_t bound, Context& ctx)
      : x_(x),
        c_(c),
        ctx_(ctx),
        m_(x.n - 1),
        T_(int(c.explorers)),
        G_(int(c.gpus)),
        dims_(ivm_dims(c)),
        trigger_(unsigned(std::min<std::int64_t>(effective_trigger(c), 0xffffffffll))),
        balance_(effective_trigger(c) < c.explorers),
        start_(device_bound<Cost>(x, bound)),
        best_(static_cast<unsigned long long>(bound)),
        grid_(blocks_for(T_, c.block)) {}

  void run(SearchOutcome& out);

 private:
  using G = Gpu<Cost, Explorer>;
  void allocate();
  void initialise(std::int64_t bound);
  void issue_round(G& g);
  void round_done(G& g);
  void give(G& v, G& t);
  void drive();
  void finish(SearchOutcome& out);
  WsArrays ws_arrays(G& g) const {
    return {g.len.get(),
            g.pos.get(),
            g.end.get(),
            g.victim.get(),
            g.selected.get(),
            g.fresh.get(),
            g.totals.get(),
            g.counters.get() + 1,
            T_,
            dims_,
            std::uint32_t(c_.arity),
            grid_,
            c_.block};
  }

  const tsp::Instance& x_;
  const IvmConfig& c_;
  Context& ctx_;
  const int m_, T_, G_, dims_;
  const unsigned trigger_;
  const bool balance_;
  const Cost start_;
  unsigned long long best_;  // least bound reported by any GPU
  const unsigned grid_;
  int home_ = 0, physical_ = 1;
  std::size_t smem_ = 0;
  std::vector<std::unique_ptr<G>> gpus_;
  std::deque<G*> waiting_;  // dry GPUs, longest waiting first
  std::uint64_t inter_steals_ = 0;
};

template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::allocate() {
  auto ph = ctx_.phase("alloc");
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 1) throw std::runtime_error("gpu.ivm: no CUDA device");
  physical_ = std::min(G_, count);
  {  // create the other cards' contexts at once (each takes ~0.1-0.3 s), not one after another
    std::vector<std::thread> init;
    for (int d = 0; d < physical_; ++d)
      if (d != home_) init.emplace_back([d] { cudaSetDevice(d), cudaFree(nullptr); });
    for (auto& t : init) t.join();
  }
  for (int g = 0; g < G_; ++g) gpus_.push_back(std::make_unique<G>(g % count, T_, x_.n, ctx_));
  for (int a = 0; a < physical_; ++a)  // peer copies over NVLink / PCIe where the pair allows
    for (int b = 0; b < physical_; ++b) gpu::enable_peer_access(a, b);
  for (auto& g : gpus_) {
    g->use();
    if (c_.ws_graph && balance_) capture_work_stealing(ws_arrays(*g), g->stream.s, g->ws_graph);
  }
  CUDA_CHECK(cudaSetDevice(home_));
}

// Algorithm 1, line 2 over G·T explorers; every GPU starts from the same bound.
template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::initialise(std::int64_t bound) {
  auto ph = ctx_.phase("h2d");
  const std::uint64_t total = factorial(m_), parts = std::uint64_t(G_) * std::uint64_t(T_);
  const std::vector<Cost> dist = dist_as<Cost>(x_);
  const IncumbentState inc = incumbent_start(x_, bound);
  Intervals all;
  for (int g = 0; g < G_; ++g) {
    G& d = *gpus_[g];
    std::vector<std::uint64_t> pos(T_), end(T_);
    for (int t = 0; t < T_; ++t) {
      const std::uint64_t part = std::uint64_t(g) * std::uint64_t(T_) + std::uint64_t(t);
      pos[t] = partition_begin(total, parts, part);
      end[t] = partition_begin(total, parts, part + 1);
    }
    d.use();
    const cudaStream_t s = d.stream.s;
    CUDA_CHECK(cudaMemcpyAsync(d.pos.get(), pos.data(), d.pos.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(d.end.get(), end.data(), d.end.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(
        cudaMemcpyAsync(d.dist.get(), dist.data(), d.dist.bytes(), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(d.inc.get(), &inc, sizeof inc, cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemsetAsync(d.fresh.get(), 1, d.fresh.bytes(), s));
    CUDA_CHECK(cudaMemsetAsync(d.counters.get(), 0, d.counters.bytes(), s));
    CUDA_CHECK(cudaStreamSynchronize(s));  // the host vectors die here
    d.bound = static_cast<unsigned long long>(bound);
    all.pos.insert(all.pos.end(), pos.begin(), pos.end());
    all.end.insert(all.end.end(), end.begin(), end.end());
  }
  if (c_.check_intervals) check_tiling(all, total);
  CUDA_CHECK(cudaSetDevice(home_));
}

// One round of GPU g: the bound lowered if another GPU found a better one, TreeExplore, the
// lengths reduction, the report; `done` marks its end.
template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::issue_round(G& g) {
  g.use();
  const cudaStream_t s = g.stream.s;
  if (c_.check_intervals) g.before = read_intervals(g.pos, g.end, s);
  if (best_ < g.bound) {
    K::lower_bound<<<1, 1, 0, s>>>(g.inc.get(), best_);
    CUDA_CHECK_LAUNCH();
    g.bound = best_;
  }
  static const auto tree_explore = tree_explore_kernel<Explorer, Cost>();
  CUDA_CHECK(cudaEventRecord(g.explore_ev.a, s));
  CUDA_CHECK(cudaMemsetAsync(g.totals.get(), 0, sizeof(K::Totals), s));
  {
    auto mark = ctx_.profiled_launch();
    tree_explore<<<grid_, c_.block, smem_, s>>>(
        g.state.get(), g.pos.get(), g.end.get(), g.fresh.get(), T_, m_, g.dist.get(), g.inc.get(),
        start_, g.totals.get(), g.counters.get(), trigger_, unsigned(c_.poll),
        unsigned(std::min<std::int64_t>(c_.slice, 0xffffffffll)));
    CUDA_CHECK_LAUNCH();
  }
  CUDA_CHECK(cudaEventRecord(g.explore_ev.b, s));
  CUDA_CHECK(cudaEventRecord(g.steal_ev.a, s));
  K::compute_lengths<<<grid_, c_.block, 0, s>>>(g.pos.get(), g.end.get(), g.len.get(), T_,
                                                g.totals.get());
  CUDA_CHECK_LAUNCH();
  Report* r = g.report.get();
  CUDA_CHECK(
      cudaMemcpyAsync(&r->totals, g.totals.get(), sizeof(K::Totals), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(
      cudaMemcpyAsync(&r->bound, &g.inc.get()->bound, sizeof(r->bound), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaEventRecord(g.steal_ev.b, s));
  CUDA_CHECK(cudaEventRecord(g.done.e, s));
  g.busy = true;
  ++g.launches;
}

// GPU g's round has ended (its `done` event completed): account, then dry, or an intra-GPU
// work-stealing phase when triggered, a give to a waiting GPU, and the next round.
template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::round_done(G& g) {
  g.busy = false;
  g.explore_s += g.explore_ev.seconds();
  g.steal_s += g.steal_ev.seconds();
  if (g.ws_pending) g.steal_s += g.ws_ev.seconds();
  if (g.peer_pending) g.peer_s += g.peer_ev.seconds();
  g.ws_pending = g.peer_pending = false;
  const Report rep = g.report[0];
  best_ = std::min(best_, rep.bound);
  g.bound = std::min(g.bound, rep.bound);
  Intervals explored;
  if (c_.check_intervals) {
    explored = read_intervals(g.pos, g.end, g.stream.s);
    check_explore_step(g.before, explored);
    ++g.checks;
  }
  if (rep.totals.active == 0) {  // dry: waits for a give (or the end)
    g.dry = true;
    g.dry_since = Steady::now();
    waiting_.push_back(&g);
    return;
  }
  if (balance_ && rep.totals.empty >= trigger_) {  // Algorithm 2 within this GPU
    g.use();
    ++g.ws_phases;
    g.idle_sum += rep.totals.empty;
    CUDA_CHECK(cudaEventRecord(g.ws_ev.a, g.stream.s));
    if (g.ws_graph.exec)
      CUDA_CHECK(cudaGraphLaunch(g.ws_graph.exec, g.stream.s));
    else
      enqueue_work_stealing(ws_arrays(g), g.stream.s, &ctx_);
    CUDA_CHECK(cudaEventRecord(g.ws_ev.b, g.stream.s));
    g.ws_pending = true;
    if (c_.check_intervals) {
      const Intervals after = read_intervals(g.pos, g.end, g.stream.s);  // the phase is done
      std::vector<int> victim(static_cast<std::size_t>(T_));
      CUDA_CHECK(
          cudaMemcpy(victim.data(), g.victim.get(), g.victim.bytes(), cudaMemcpyDeviceToHost));
      check_steal_step(explored, after, victim);
      ++g.checks;
    }
  }
  if (!waiting_.empty()) {
    G& thief = *waiting_.front();
    waiting_.pop_front();
    give(g, thief);
    issue_round(thief);
  }
  issue_round(g);
}

// Victim v gives the right half of each explorer's interval to the dry GPU t (protocol above).
template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::give(G& v, G& t) {
  Intervals had;
  if (c_.check_intervals) had = read_intervals(v.pos, v.end, v.stream.s);
  v.use();
  const cudaStream_t vs = v.stream.s, ts = t.stream.s;
  const std::size_t bytes = v.xpos.bytes();
  CUDA_CHECK(cudaEventRecord(v.peer_ev.a, vs));
  K::give_halves<<<grid_, c_.block, 0, vs>>>(v.pos.get(), v.end.get(), v.xpos.get(), v.xend.get(),
                                             T_);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpyPeerAsync(t.xpos.get(), t.on.device, v.xpos.get(), v.on.device, bytes, vs));
  CUDA_CHECK(cudaMemcpyPeerAsync(t.xend.get(), t.on.device, v.xend.get(), v.on.device, bytes, vs));
  CUDA_CHECK(cudaEventRecord(v.peer_ev.b, vs));
  CUDA_CHECK(cudaEventRecord(v.given.e, vs));
  t.use();
  CUDA_CHECK(cudaStreamWaitEvent(ts, v.given.e, 0));
  CUDA_CHECK(cudaEventRecord(t.peer_ev.a, ts));
  K::take_intervals<<<grid_, c_.block, 0, ts>>>(t.xpos.get(), t.xend.get(), t.pos.get(),
                                                t.end.get(), t.fresh.get(), T_);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaEventRecord(t.peer_ev.b, ts));
  v.peer_pending = t.peer_pending = true;
  ++v.gives, ++t.takes, ++inter_steals_;
  t.dry = false;
  t.wait_s += std::chrono::duration<double>(Steady::now() - t.dry_since).count();
  if (c_.check_intervals) {  // what v had is now exactly split between v and t
    Intervals now = read_intervals(v.pos, v.end, vs);
    const Intervals took = read_intervals(t.pos, t.end, ts);
    now.pos.insert(now.pos.end(), took.pos.begin(), took.pos.end());
    now.end.insert(now.end.end(), took.end.begin(), took.end.end());
    if (merged_union(had) != merged_union(now))
      throw std::logic_error("gpu.ivm: a give between GPUs lost or added leaves");
    ++v.checks;
  }
}

// One host thread polls every GPU's `done` event and reacts in order; stops when no round is
// in flight and every GPU is dry (the termination argument at the top of this file).
template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::drive() {
  auto ph = ctx_.phase("explore");
  for (auto& g : gpus_) issue_round(*g);
  for (;;) {
    ctx_.check_deadline();
    bool progressed = false;
    for (auto& g : gpus_) {
      if (!g->busy) continue;
      const cudaError_t q = cudaEventQuery(g->done.e);
      if (q == cudaErrorNotReady) {
        cudaGetLastError();  // not an error: clear it so that no launch check sees it
        continue;
      }
      CUDA_CHECK(q);
      round_done(*g);
      progressed = true;
    }
    if (std::all_of(gpus_.begin(), gpus_.end(), [](const auto& g) { return !g->busy && g->dry; }))
      break;
    if (!progressed) std::this_thread::yield();
  }
  const auto now = Steady::now();
  for (G* g : waiting_) g->wait_s += std::chrono::duration<double>(now - g->dry_since).count();
  waiting_.clear();
  CUDA_CHECK(cudaSetDevice(home_));
}

template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::finish(SearchOutcome& out) {
  {
    auto ph = ctx_.phase("d2h");
    for (auto& g : gpus_) {
      g->use();
      CUDA_CHECK(cudaMemcpyAsync(g->h_inc.get(), g->inc.get(), sizeof(IncumbentState),
                                 cudaMemcpyDeviceToHost, g->stream.s));
      CUDA_CHECK(cudaMemcpyAsync(g->h_counters.get(), g->counters.get(), g->counters.bytes(),
                                 cudaMemcpyDeviceToHost, g->stream.s));
      CUDA_CHECK(cudaStreamSynchronize(g->stream.s));
    }
    CUDA_CHECK(cudaSetDevice(home_));
  }
  const G* best = gpus_.front().get();
  double explore_s = 0, steal_s = 0, peer_s = 0, idle = 0, phases = 0, launches = 0, steals = 0,
         checks = 0;
  for (int i = 0; i < G_; ++i) {
    const G& g = *gpus_[i];
    if (g.h_inc[0].held < best->h_inc[0].held) best = &g;
    out.nodes += g.h_counters[0];
    const std::string p = "gpu" + std::to_string(i) + ".";
    ctx_.set(p + "compute_s", g.explore_s);
    ctx_.set(p + "steal_s", g.steal_s);
    ctx_.set(p + "peer_s", g.peer_s);
    ctx_.set(p + "wait_s", g.wait_s);
    ctx_.set(p + "nodes", double(g.h_counters[0]));
    ctx_.set(p + "gives", double(g.gives));
    ctx_.set(p + "takes", double(g.takes));
    explore_s += g.explore_s, steal_s += g.steal_s, peer_s += g.peer_s, idle += g.idle_sum;
    phases += double(g.ws_phases), launches += double(g.launches),
        steals += double(g.h_counters[1]);
    checks += double(g.checks);
  }
  take_tour(x_, best->h_inc[0], out);
  const double kernel_s = explore_s + steal_s + peer_s;
  ctx_.set("kernel_nodes_per_s",
           kernel_s > 0 ? out.nodes * G_ / kernel_s : 0);  // per-GPU times summed
  ctx_.set("explore_s", explore_s);
  ctx_.set("steal_s", steal_s);
  ctx_.set("peer_s", peer_s);
  ctx_.set("steal_share", kernel_s > 0 ? (steal_s + peer_s) / kernel_s : 0);
  ctx_.set("explore_launches", launches);
  ctx_.set("ws_phases", phases);
  ctx_.set("steals", steals);
  ctx_.set("inter_gpu_steals", double(inter_steals_));
  ctx_.set("idle_per_phase", phases > 0 ? idle / phases : 0);
  ctx_.set("gpus", double(G_));
  ctx_.set("gpus.physical", double(physical_));
  if (c_.check_intervals) ctx_.set("interval_checks", checks);
}

template <class Cost, class Explorer>
void MultiSearch<Cost, Explorer>::run(SearchOutcome& out) {
  CUDA_CHECK(cudaGetDevice(&home_));
  smem_ = sizeof(std::uint64_t) * (kIvmMaxFree + 1) + sizeof(Cost) * std::size_t(x_.n) * x_.n;
  try {
    allocate();
    initialise(static_cast<std::int64_t>(best_));
    set_occupancy(ctx_, tree_explore_kernel<Explorer, Cost>(), c_.block, smem_, T_);
    drive();
    finish(out);
  } catch (...) {
    cudaSetDevice(home_);
    throw;
  }
}

// The device current on entry is current again on return, after the search's GPUs are torn
// down: each Gpu's stream is destroyed on its own card (OwnStream), which left the last card
// current, so the next repetition's events were created there and cudaEventRecord on the
// case's stream failed with "invalid resource handle" (issue 37).
template <class Cost, class Explorer>
void search(const tsp::Instance& x, const IvmConfig& c, std::int64_t bound, Context& ctx,
            SearchOutcome& out) {
  int home = 0;
  CUDA_CHECK(cudaGetDevice(&home));
  const DeviceScope restore(home);  // destroyed after the MultiSearch below
  MultiSearch<Cost, Explorer>(x, c, bound, ctx).run(out);
}

}  // namespace

void ivm_multi_search(const tsp::Instance& x, const IvmConfig& c, std::int64_t bound, Context& ctx,
                      SearchOutcome& out) {
  const bool packed = c.state == IvmState::Packed;
  if (narrow_costs(x)) {
    if (packed)
      search<std::int32_t, IvmPacked<std::int32_t>>(x, c, bound, ctx, out);
    else
      search<std::int32_t, IvmExplorer<std::int32_t>>(x, c, bound, ctx, out);
  } else {
    if (packed)
      search<std::int64_t, IvmPacked<std::int64_t>>(x, c, bound, ctx, out);
    else
      search<std::int64_t, IvmExplorer<std::int64_t>>(x, c, bound, ctx, out);
  }
}

}  // namespace dpgpu::backtracking
