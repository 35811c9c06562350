// wavefront_engine.cuh — the generic diagonal-wavefront engine (paper 000's model): one
// run_wavefront() for every problem. The engine owns the iteration over steps (diagonals,
// layers), the ring of the last `window` diagonals in one linear padded device buffer
// (step_ring.cuh), the read-only inputs through the chosen path (input_store.cuh), the
// decision data and its asynchronous offload (decision_store.cuh, host_offload.cuh), phases,
// deadline checks, counters and the per-step time series. A problem adapter states what is
// problem-specific:
//
//   using Cell;                                      the ring's element type
//   std::int64_t steps() const;                      diagonals (or layers) to compute
//   RingShape ring() const;                          window, padded slot size, layout, zero fill
//   std::uint64_t step_cells(std::int64_t s) const;  two-ended rings only: cells of step s (s >= −1)
//   void upload(InputStore&, Cell* before_first, cudaStream_t);
//                                                    read-only inputs (and the state "before step 0")
//   the step, either
//     static constexpr bool kCellKernel = true;      a cell per thread through the engine's kernel
//     using Recurrence;                              (cell_step_kernel.cuh: the device recurrence)
//     template <ReadPath P> typename Recurrence::Inputs inputs() const;
//     CellRange cells(std::int64_t s) const;         first cell index and blocks of step s
//     int block() const;
//   or (a unit of work other than a cell: a tile per warp, a subset per thread grid-striding)
//     template <ReadPath P, bool kBits> void launch(const StepArgs<Cell>&) const;
//   with decisions (EngineOptions::decisions):
//     DecisionShape decisions() const;  std::uint64_t decision_offset(std::int64_t s) const;
//     void reconstruct(const DecisionStore<Adapter>&);       ("traceback" phase)
//   void copy_out(const Cell* last_step, DecisionStore<Adapter>* (null without decisions),
//                 cudaStream_t);                 the answer ("d2h"; may call copy_to_host())
//   optional: check_fits(const EngineOptions&), prepare<P, kBits>() (kernel limits,
//     occupancy), allocate(Context&, cudaStream_t) (its own device state),
//     after_steps(DecisionStore<Adapter>*, cudaStream_t) -> extra launches (still "compute"),
//     report(Context&), step_cells(s); each one it defines named in
//     static constexpr AdapterHooks kHooks{.check_fits = true, ...};
//
// run_wavefront() checks all of it with static_assert (the concepts below): a misspelt or
// mis-typed hook is a compile error naming the hook, never a step silently skipped.
//
// Counters set here for every problem: diagonals, kernel_launches, bytes_offloaded,
// offload_chunks, offload_host_waits, offload_wait_s (host waits on the pinned ring),
// offload_stream_wait_s and offload_stream_waits (GPU time the compute stream stood in
// cudaStreamWaitEvent for an offload copy, events around each wait), peak_device_bytes.
// With ctx.series_wanted(): series "diagonal_time_s" (step index, seconds; every step up to
// kSeriesCap steps, evenly sampled beyond).
#pragma once
#include <cuda_runtime.h>

#include <concepts>
#include <cstdint>
#include <optional>
#include <vector>

#include "cell_step_kernel.cuh"
#include "cuda_check.cuh"
#include "decision_store.cuh"
#include "device_buffer.cuh"
#include "dpgpu/context.hpp"
#include "input_store.cuh"
#include "readonly.cuh"
#include "step_ring.cuh"

namespace dpgpu::wavefront {

struct EngineOptions {
  ReadPath readonly = ReadPath::Ldg;  // parameter `readonly`
  bool decisions = false;             // keep each step's decision data (reconstruct)
  bool offload = true;  // ...streamed to the host as chunks finish (else kept on the device)
  std::size_t offload_slots = 4;         // pinned staging ring slots
  std::uint64_t offload_slot_bytes = 0;  // bytes per slot; 0: the adapter's largest chunk
  std::int64_t deadline_every = 256;     // steps between deadline checks
  bool host_one_step_ahead = false;  // the host waits for step s − 1 after queuing s (long steps:
                                     // keeps the deadline check meaningful)
};

// Launch geometry of a cell-per-thread step: threads first .. first + blocks·block − 1.
struct CellRange {
  std::int64_t first = 0, blocks = 0;
};

template <class Cell>
struct StepArgs {
  std::int64_t step = 0;
  StepRing<Cell> ring;
  std::uint8_t* decisions = nullptr;  // this step's decision data (kBits)
  cudaStream_t stream = nullptr;
};

// The optional hooks an adapter defines, stated by the adapter (static constexpr AdapterHooks
// kHooks): the engine compares each with what it finds, so a hook declared but misspelt (or
// with the wrong signature), and one defined but not declared, are both compile errors.
struct AdapterHooks {
  bool check_fits = false, prepare = false, allocate = false, after_steps = false, report = false,
       step_cells = false;
};

// What every adapter has: its cell type, its hooks' declaration, steps, ring, inputs, answer.
template <class A>
concept WavefrontAdapter = requires {
  typename A::Cell;
  { A::kHooks } -> std::convertible_to<AdapterHooks>;
}
&&requires(A& a, InputStore& in, typename A::Cell* cell, DecisionStore<A>* store,
           cudaStream_t stream) {
  { a.steps() } -> std::convertible_to<std::int64_t>;
  { a.ring() } -> std::convertible_to<RingShape>;
  a.upload(in, cell, stream);
  a.copy_out(cell, store, stream);
};

// A step as a cell per thread through the engine's kernel (cell_step_kernel.cuh).
template <class A, ReadPath P>
concept CellStepAdapter = requires(A& a, std::int64_t s) {
  A::kCellKernel;
  typename A::Recurrence;
  a.template inputs<P>();
  { a.cells(s) } -> std::convertible_to<CellRange>;
  { a.block() } -> std::convertible_to<int>;
};

// A step as the adapter's own launch (a tile per warp, a subset per thread, ...).
template <class A, ReadPath P, bool kBits>
concept LaunchStepAdapter = requires(A& a, StepArgs<typename A::Cell>& args) {
  a.template launch<P, kBits>(args);
};

// With decisions: their layout and the traceback over them.
template <class A>
concept DecisionAdapter = requires(A& a, DecisionStore<A>& store) {
  { a.decisions() } -> std::convertible_to<DecisionShape>;
  a.reconstruct(store);
};

// Each optional hook is defined exactly when kHooks names it.
template <class A, ReadPath P, bool kBits>
concept HooksAsDeclared = A::kHooks.check_fits == requires(A& a, const EngineOptions& o) {
  a.check_fits(o);
}
&&A::kHooks.prepare == requires(A& a) { a.template prepare<P, kBits>(); }
&&A::kHooks.allocate == requires(A& a, Context& ctx, cudaStream_t st) { a.allocate(ctx, st); }
&&A::kHooks.after_steps == requires(A& a, DecisionStore<A>* d, cudaStream_t st) {
  a.after_steps(d, st);
}
&&A::kHooks.report == requires(A& a, Context& ctx) { a.report(ctx); }
&&A::kHooks.step_cells == requires(A& a, std::int64_t s) { a.step_cells(s); };

namespace engine_detail {

template <class A, ReadPath P, bool kBits>
constexpr bool check_adapter() {
  static_assert(
      WavefrontAdapter<A>,
      "wavefront adapter: needs using Cell, static constexpr AdapterHooks kHooks, steps(), ring(), "
      "upload(InputStore&, Cell*, cudaStream_t), copy_out(Cell*, DecisionStore<A>*, cudaStream_t)");
  static_assert(
      CellStepAdapter<A, P> || LaunchStepAdapter<A, P, kBits>,
      "wavefront adapter: no step: needs kCellKernel, Recurrence, inputs<P>(), cells(s), block() "
      "or launch<P, kBits>(StepArgs<Cell>&)");
  static_assert(
      !(requires { A::kCellKernel; }) || CellStepAdapter<A, P>,
      "wavefront adapter: kCellKernel set, but inputs<P>(), cells(s) or block() is missing");
  static_assert(!kBits || DecisionAdapter<A>,
                "wavefront adapter: decisions need decisions() -> DecisionShape and "
                "reconstruct(DecisionStore&)");
  static_assert(
      HooksAsDeclared<A, P, kBits>,
      "wavefront adapter: a hook named in kHooks is not defined with the engine's signature "
      "(misspelt?), "
      "or one defined is not named in kHooks: check_fits(const EngineOptions&), template "
      "<ReadPath, bool> "
      "prepare(), allocate(Context&, cudaStream_t), after_steps(DecisionStore<A>*, cudaStream_t), "
      "report(Context&), step_cells(std::int64_t)");
  return true;
}

}  // namespace engine_detail

inline constexpr std::size_t kSeriesCap = 4096;

namespace engine_detail {

// Declared after a solve's buffers, so destroyed before them: when the solve throws (deadline,
// failed launch) with work still queued, the stream drains before any buffer it uses is freed.
struct DrainOnExit {
  cudaStream_t stream;
  ~DrainOnExit() { cudaStreamSynchronize(stream); }  // errors surface at ctx.end()
};

// Timing events around sampled steps, only in the harness's untimed series run.
class SeriesClock {
 public:
  SeriesClock(bool on, std::int64_t steps) : on_(on), steps_(steps) {}
  ~SeriesClock() {
    for (auto& s : samples_) {
      cudaEventDestroy(s.before);
      cudaEventDestroy(s.after);
    }
  }
  bool sampled(std::int64_t s) const {
    return on_ && (std::uint64_t(steps_) <= kSeriesCap ||
                   (std::uint64_t(s) * kSeriesCap) % std::uint64_t(steps_) < kSeriesCap);
  }
  void before(std::int64_t s, cudaStream_t stream) {
    samples_.push_back({s, nullptr, nullptr});
    CUDA_CHECK(cudaEventCreate(&samples_.back().before));
    CUDA_CHECK(cudaEventCreate(&samples_.back().after));
    CUDA_CHECK(cudaEventRecord(samples_.back().before, stream));
  }
  void after(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(samples_.back().after, stream)); }
  void emit(Context& ctx) const {  // after the stream has been synchronized
    for (const auto& s : samples_) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, s.before, s.after));
      ctx.series("diagonal_time_s", std::size_t(s.step), ms / 1e3);
    }
  }

 private:
  struct Sample {
    std::int64_t step;
    cudaEvent_t before, after;
  };
  bool on_;
  std::int64_t steps_;
  std::vector<Sample> samples_;
};

// Two events marking "step s done", for host_one_step_ahead.
struct StepDone {
  cudaEvent_t e[2] = {nullptr, nullptr};
  explicit StepDone(bool on) {
    if (on)
      for (auto& x : e) CUDA_CHECK(cudaEventCreateWithFlags(&x, cudaEventDisableTiming));
  }
  ~StepDone() {
    for (auto x : e)
      if (x) cudaEventDestroy(x);
  }
};

inline std::int64_t pos_mod(std::int64_t a, std::int64_t m) { return ((a % m) + m) % m; }

template <class A, class Cell>
Cell* slot_of(const A& a, const RingShape& shape, Cell* base, std::int64_t s) {
  if (!base) return nullptr;
  if constexpr (A::kHooks.step_cells) {
    if (shape.two_ended_cells)
      return pos_mod(s, 2) == 0 ? base : base + (shape.two_ended_cells - a.step_cells(s));
  }
  return base + pos_mod(s, shape.window) * std::int64_t(shape.slot_cells);
}

// Step s's arguments: its stream and ring slots (the current one and the one or two before);
// the decisions' slot is the caller's.
template <class A>
StepArgs<typename A::Cell> step_args(const A& a, const RingShape& shape, typename A::Cell* ring,
                                     std::int64_t s, cudaStream_t stream) {
  StepArgs<typename A::Cell> args;
  args.step = s;
  args.stream = stream;
  args.ring.cur = slot_of(a, shape, ring, s);
  args.ring.back1 = slot_of(a, shape, ring, s - 1);
  args.ring.back2 = shape.window >= 3 ? slot_of(a, shape, ring, s - 2) : nullptr;
  args.ring.base = ring;
  args.ring.slot_cells = std::int64_t(shape.slot_cells);
  args.ring.window = shape.window;
  args.ring.step = int(s);
  return args;
}

// Step args.step's one profiled launch: the engine's cell kernel over the adapter's cells(s),
// or the adapter's own launch.
template <class A, ReadPath P, bool kBits>
void launch_step(A& a, StepArgs<typename A::Cell>& args, Context& ctx) {
  auto mark = ctx.profiled_launch();  // lets dpgpu's profiler sample launches across the run
  if constexpr (CellStepAdapter<A, P>) {
    using Rec = typename A::Recurrence;
    const std::int64_t s = args.step;
    const CellRange r = a.cells(s);
    wavefront_cell_step<Rec, P, kBits>
        <<<static_cast<unsigned>(r.blocks), static_cast<unsigned>(a.block()), 0, args.stream>>>(
            a.template inputs<P>(), args.ring, reinterpret_cast<std::uint32_t*>(args.decisions),
            int(r.first));
    CUDA_CHECK_LAUNCH();
  } else {
    a.template launch<P, kBits>(args);
  }
}

template <class A, ReadPath P, bool kBits>
void run(A& a, const EngineOptions& o, Context& ctx) {
  static_assert(check_adapter<A, P, kBits>());
  using Cell = typename A::Cell;
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const std::int64_t steps = a.steps();
  const RingShape shape = a.ring();
  if constexpr (A::kHooks.prepare) a.template prepare<P, kBits>();

  gpu::DeviceBuffer<Cell> ring;
  std::optional<InputStore> inputs;
  std::optional<DecisionStore<A>> decisions;
  SeriesClock series(ctx.series_wanted(), steps);
  StepDone done(o.host_one_step_ahead);
  const DrainOnExit drain{stream};
  {
    auto phase = ctx.phase("alloc");
    if constexpr (A::kHooks.check_fits) a.check_fits(o);
    ring = gpu::DeviceBuffer<Cell>(std::size_t(shape.cells()), &ctx);
    if (shape.zero && ring.bytes())
      CUDA_CHECK(cudaMemsetAsync(ring.get(), 0, ring.bytes(), stream));
    if constexpr (A::kHooks.allocate) a.allocate(ctx, stream);
    if constexpr (kBits)
      decisions.emplace(a, steps, a.decisions(), o.offload, o.offload_slots, o.offload_slot_bytes,
                        ctx, stream);
  }
  DecisionStore<A>* store = nullptr;  // null without decisions
  if constexpr (kBits) store = &*decisions;
  {
    auto phase = ctx.phase("h2d");
    inputs.emplace(o.readonly, ctx, stream);
    a.upload(*inputs, slot_of(a, shape, ring.get(), -1), stream);
  }
  std::int64_t launches = 0;
  {
    auto phase = ctx.phase("compute");
    for (std::int64_t s = 0; s < steps; ++s) {
      if (o.deadline_every > 0 && s % o.deadline_every == 0) ctx.check_deadline();
      StepArgs<Cell> args = step_args(a, shape, ring.get(), s, stream);
      if constexpr (kBits) args.decisions = decisions->step(s);
      const bool timed = series.sampled(s);
      if (timed) series.before(s, stream);
      launch_step<A, P, kBits>(a, args, ctx);
      if (timed) series.after(stream);
      if constexpr (kBits) decisions->stepped(s);
      if (o.host_one_step_ahead) {
        CUDA_CHECK(cudaEventRecord(done.e[s % 2], stream));
        if (s >= 1) CUDA_CHECK(cudaEventSynchronize(done.e[(s - 1) % 2]));
      }
    }
    launches = steps;
    if constexpr (A::kHooks.after_steps) launches += a.after_steps(store, stream);
  }
  {
    auto phase = ctx.phase("d2h");
    a.copy_out(steps > 0 ? slot_of(a, shape, ring.get(), steps - 1) : nullptr, store, stream);
    if constexpr (kBits) decisions->finish();
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  if constexpr (kBits) {
    auto phase = ctx.phase("traceback");
    a.reconstruct(*decisions);
  }
  ctx.set("diagonals", double(steps));
  ctx.set("kernel_launches", double(launches));
  if constexpr (kBits) {
    decisions->report(ctx);
  } else {
    for (const char* c : {"bytes_offloaded", "offload_chunks", "offload_host_waits",
                          "offload_wait_s", "offload_stream_wait_s", "offload_stream_waits"})
      ctx.set(c, 0);
  }
  series.emit(ctx);
  if constexpr (A::kHooks.report) a.report(ctx);
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
}

template <class A, bool kBits>
void run_path(A& a, const EngineOptions& o, Context& ctx) {
  switch (o.readonly) {
    case ReadPath::Plain: return run<A, ReadPath::Plain, kBits>(a, o, ctx);
    case ReadPath::Texture: return run<A, ReadPath::Texture, kBits>(a, o, ctx);
    case ReadPath::Ldg: break;
  }
  run<A, ReadPath::Ldg, kBits>(a, o, ctx);
}

}  // namespace engine_detail

// Runs adapter `a` to the end: afterwards its copy_out() and reconstruct() have filled
// whatever result it keeps, and the counters are set.
template <class Adapter>
void run_wavefront(Adapter& a, const EngineOptions& o, Context& ctx) {
  if (o.decisions)
    engine_detail::run_path<Adapter, true>(a, o, ctx);
  else
    engine_detail::run_path<Adapter, false>(a, o, ctx);
}

}  // namespace dpgpu::wavefront
