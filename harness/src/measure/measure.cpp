#include "measure/measure.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "dpgpu/error.hpp"
#include "device/gpu_monitor.hpp"
#include "measure/case_stats.hpp"
#include "records/human_format.hpp"
#include "measure/energy_window.hpp"
#include "profile/profiler_cupti.hpp"

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>

#include "device/cache_flush.hpp"
#endif

namespace dpgpu {

// host_bytes_available(): process/host_memory.cpp (MemAvailable and the cgroup limit).

std::string memory_refusal(const CaseJob& job, bool check_device) {
  if (!job.solver->memory) return {};
  MemoryNeed need = job.solver->memory(*job.instance, job.params);
  if (need.host > 0) {
    auto avail = host_bytes_available();
    if (need.host > avail)
      return fmt::format("needs {} of host memory, {} available", format_bytes(need.host),
                         format_bytes(avail));
  }
#if DPGPU_WITH_CUDA
  if (check_device && need.device > 0) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess && need.device > free)
      return fmt::format("needs {} of device memory, {} free", format_bytes(need.device),
                         format_bytes(free));
  }
#else
  (void)check_device;
#endif
  return {};
}

namespace {

// Makes the device of the case's stream current before a repetition and again after it, so a
// solver that ends on another card (a multi-GPU solve) cannot break the next repetition's
// events and launches (issue 37). No stream (CPU solvers): nothing.
class StreamDeviceCurrent {
 public:
  explicit StreamDeviceCurrent(void* stream) {
#if DPGPU_WITH_CUDA
    if (!stream) return;
    const cudaError_t e = cudaStreamGetDevice(static_cast<cudaStream_t>(stream), &device_);
    if (e != cudaSuccess)
      throw std::runtime_error(std::string("cudaStreamGetDevice: ") + cudaGetErrorString(e));
    make_current();
#else
    (void)stream;
#endif
  }
  ~StreamDeviceCurrent() {
    try {
      make_current();
    } catch (...) {  // reported by the next repetition's own call
    }
  }
  StreamDeviceCurrent(const StreamDeviceCurrent&) = delete;
  StreamDeviceCurrent& operator=(const StreamDeviceCurrent&) = delete;

 private:
  void make_current() const {
#if DPGPU_WITH_CUDA
    if (device_ < 0) return;
    const cudaError_t e = cudaSetDevice(device_);
    if (e != cudaSuccess)
      throw std::runtime_error(std::string("cudaSetDevice: ") + cudaGetErrorString(e));
#endif
  }
  int device_ = -1;
};

}  // namespace

void apply_external_time(RepRecord& rec) {
  const auto it = rec.counters.find("external_time_s");
  if (it == rec.counters.end()) return;
  rec.counters["measured_s"] = rec.time_s;
  rec.time_s = it->second;
}

namespace {

// One solve, timed by the Context, then checked outside the timed region.
// `sink`: where every `stride`-th marked launch goes (the in-worker profiler's solve).
RepRecord solve_once(const CaseJob& job, Context::Clock::time_point deadline, void* stream,
                     std::vector<Context::SeriesPoint>* series = nullptr,
                     LaunchMarkSink* sink = nullptr, std::uint64_t stride = 0, bool check = true) {
  RepRecord rec;
  try {
    const StreamDeviceCurrent on(stream);
    Context ctx(job.solver->backend, deadline, job.verbose, stream);
    if (series) ctx.want_series();
    if (sink) ctx.profile_marks(sink, stride);
    ctx.begin();
    AnyOutcome out = job.solver->solve(*job.instance, job.params, ctx);
    ctx.end();
    rec.time_s = ctx.elapsed_s();
    rec.phases = ctx.phase_seconds();
    rec.counters = ctx.counters();
    apply_external_time(rec);
    if (ctx.device_peak() > 0) rec.counters["peak_device_bytes"] = double(ctx.device_peak());
    // A counter its registration does not declare is the solver's mistake: an error on it.
    if (auto why = job.solver->undeclared_counter(rec.counters)) throw std::logic_error(*why);
    rec.objective = out.objective;
    rec.checksum = out.checksum;
    if (series) *series = ctx.series_points();
    if (!check) return rec;  // an extra solve of the energy window: its answer was checked before

    std::vector<std::string> problems;
    if (auto verdict = job.problem->check(*job.instance, out)) {
      rec.valid = verdict->ok && verdict->objective == out.objective;
      if (!verdict->ok)
        problems.push_back("certificate rejected: " + verdict->message);
      else if (verdict->objective != out.objective)
        problems.push_back(fmt::format("certificate has objective {}, solver reported {}",
                                       verdict->objective, out.objective));
    }
    if (job.instance->known_optimum) {
      bool match = *job.instance->known_optimum == out.objective;
      rec.valid = rec.valid.value_or(true) && match;
      if (!match)
        problems.push_back(fmt::format("known optimum is {}, solver reported {}",
                                       *job.instance->known_optimum, out.objective));
    }
    if (!problems.empty()) {
      rec.status = Status::Invalid;
      rec.message = fmt::format("{}", fmt::join(problems, "; "));
    }
  } catch (const Timeout& e) {
    rec.status = Status::Timeout;
    rec.message = fmt::format("timed out after {} s: {}", job.measure.timeout_s, e.what());
  } catch (const OutOfMemory& e) {
    rec.status = Status::Oom;
    rec.message = e.what();
  } catch (const GpuUnavailable& e) {  // a .solve_gpu found no usable GPU: skipped, with why
    rec.status = Status::Skipped;
    rec.message = e.what();
  } catch (const std::bad_alloc&) {
    rec.status = Status::Oom;
    rec.message = "host memory allocation failed (std::bad_alloc)";
  } catch (const std::exception& e) {
    rec.status = Status::Error;
    rec.message = e.what();
  }
  return rec;
}

bool failed(const CaseResult& r) {
  return !r.reps.empty() && r.reps.back().status != Status::Ok &&
         r.reps.back().status != Status::Invalid;
}

nlohmann::json sample_json() {
  auto s = sample_gpu();
  if (!s) return nullptr;
  return {{"name", s->name},
          {"uuid", s->uuid},
          {"sm_clock_mhz", s->sm_clock_mhz},
          {"memory_clock_mhz", s->memory_clock_mhz},
          {"temperature_c", s->temperature_c},
          {"reasons", s->reasons}};
}

// One CUDA stream for all solves of a GPU case, so its creation is not repeated per solve.
class CaseStream {
 public:
  explicit CaseStream(Backend b) {
#if DPGPU_WITH_CUDA
    if (b == Backend::Gpu && cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking) != cudaSuccess)
      s_ = nullptr;
#else
    (void)b;
#endif
  }
  ~CaseStream() {
#if DPGPU_WITH_CUDA
    if (s_) cudaStreamDestroy(s_);
#endif
  }
  void* get() const { return s_; }

  // Overwrites a buffer twice the L2 size on the stream, so the next solve starts cold.
  void flush_l2() {
#if DPGPU_WITH_CUDA
    if (!s_) return;
    if (!flush_) {
      try {
        flush_ = std::make_unique<CacheFlush>();
      } catch (const std::exception& e) {
        throw std::runtime_error(std::string("cold: ") + e.what());
      }
    }
    flush_->overwrite_l2(s_);
#endif
  }

 private:
#if DPGPU_WITH_CUDA
  cudaStream_t s_ = nullptr;
  std::unique_ptr<CacheFlush> flush_;
#else
  void* s_ = nullptr;
#endif
};

}  // namespace

// Closes the energy window opened before the timed repetitions, after extra back-to-back
// solves (untimed, unchecked) while it is shorter than energy_window_s and time is left.
static EnergyRecord close_energy_window(const CaseJob& job, EnergyWindow& window,
                                        const CaseResult& result,
                                        Context::Clock::time_point deadline, CaseStream& stream) {
  int solves = 0;
  double solve_s = 0;
  for (auto& r : result.reps)
    if (counted(r)) ++solves, solve_s += r.time_s;
  const bool ok = !failed(result) && result.status == Status::Ok;
  while (ok && window.available() && window.elapsed_s() < job.measure.energy_window_s &&
         Context::Clock::now() < deadline) {
    if (job.measure.cold) stream.flush_l2();
    RepRecord rec = solve_once(job, deadline, stream.get(), nullptr, nullptr, 0, /*check=*/false);
    if (!counted(rec)) break;
    ++solves, solve_s += rec.time_s;
  }
  return window.close(solves, solve_s);
}

using Clock = Context::Clock;

// timeout_s holds for warm-ups and repetitions together: checked before every solve, and
// inside solvers that poll ctx.check_deadline().
static void out_of_time(CaseResult& result, const CaseJob& job, const std::string& done) {
  result.status = Status::Timeout;
  result.message = fmt::format("timeout_s {} reached after {}", job.measure.timeout_s, done);
}

static Clock::time_point deadline_after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// The untimed warm-up solves; false (the result says why) when one failed or time ran out.
static bool warm_up(const CaseJob& job, Clock::time_point deadline, CaseStream& stream,
                    CaseResult& result) {
  for (int w = 0; w < job.measure.warmup; ++w) {
    if (Clock::now() > deadline) {
      out_of_time(result, job, fmt::format("{} of {} warm-up runs", w, job.measure.warmup));
      return false;
    }
    RepRecord rec = solve_once(job, deadline, stream.get());
    if (!counted(rec)) {
      result.status = rec.status;
      result.message = "warm-up: " + rec.message;
      return false;
    }
  }
  return true;
}

// The counted repetitions under the stopping rule: the minimum count first, then one more
// at a time while noisy; their wall time and the harness's share of it.
static void timed_repetitions(const CaseJob& job, Clock::time_point deadline, CaseStream& stream,
                              CaseResult& result) {
  const MeasureSettings& m = job.measure;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const int n = int(result.reps.size());
    if (n >= m.repetitions &&
        (!m.max_noise || n >= m.max_repetitions || case_stats(result.reps).rsd <= *m.max_noise ||
         Clock::now() > deadline))
      break;
    if (Clock::now() > deadline) {
      out_of_time(result, job,
                  fmt::format("{} of {} repetitions ({} warm-up runs before them)", n,
                              m.repetitions, m.warmup));
      break;
    }
    if (m.cold) stream.flush_l2();
    const auto iteration_start = std::chrono::steady_clock::now();
    RepRecord rec = solve_once(job, deadline, stream.get());
    rec.rep = n;
    rec.harness_s = std::max(
        0.0,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - iteration_start).count() -
            rec.time_s);
    const bool stop = !counted(rec);
    result.reps.push_back(std::move(rec));
    if (stop) break;
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double in_iterations = 0;
  for (auto& r : result.reps) in_iterations += r.time_s + r.harness_s;
  result.fixed_s = std::max(0.0, result.wall_s - in_iterations);
}

// One more solve under CUPTI, with a fresh timeout_s: after everything else, so neither
// timings nor the series see the profiler.
static void profile_in_worker(const CaseJob& job, CaseStream& stream, CaseResult& result,
                              double preload_wait_s) {
  const auto& counters = result.reps.front().counters;
  auto count = [&](const char* key) { return counters.count(key) ? counters.at(key) : 0.0; };
  const auto profile_deadline = deadline_after(job.measure.timeout_s);
  result.profile = profile_with_cupti(
      *job.profile, count("kernel_launches"), count("annotated_launches"),
      [&](LaunchMarkSink* sink, std::uint64_t stride) -> std::string {
        RepRecord rec = solve_once(job, profile_deadline, stream.get(), nullptr, sink, stride);
        return rec.status == Status::Ok ? ""
                                        : fmt::format("{}: {}", to_string(rec.status), rec.message);
      });
  result.profile->wall_s += preload_wait_s;
}

CaseResult measure_case(const CaseJob& job) {
  CaseResult result;
  CaseStream stream(job.solver->backend);
  const bool gpu = job.solver->backend == Backend::Gpu;
  const auto deadline = deadline_after(job.measure.timeout_s);
  // The cards the case runs on (several for a solver's `gpus`), whose energy is summed; their
  // power before the case (energy_window.hpp): to subtract for the energy above idle.
  const int cards = gpu ? cards_in_use(cards_wanted(job.solver->backend, job.params.values())) : 0;
  const std::optional<double> idle_w = gpu ? idle_gpu_power_w(cards) : std::nullopt;
  if (!warm_up(job, deadline, stream, result)) return result;

  // The in-worker profiler's host library finishes loading before the timed solves begin.
  const double preload_wait_s = job.profile ? cupti_preload_wait() : 0.0;
  if (gpu) result.gpu_start = sample_json();
  EnergyWindow energy(job.solver->backend, idle_w, cards);
  timed_repetitions(job, deadline, stream, result);
  if (gpu) result.gpu_end = sample_json();
  result.energy = close_energy_window(job, energy, result, deadline, stream);

  // After the timed repetitions, so recording the series cannot disturb them.
  const bool ran_through = !failed(result) && result.status == Status::Ok;
  if (job.measure.series && ran_through) {
    RepRecord rec = solve_once(job, deadline, stream.get(), &result.series);
    if (rec.status != Status::Ok) result.series_message = "series run: " + rec.message;
    if (rec.status == Status::Ok && result.series.empty())
      result.series_message = "series run: the solver records no series";
  }
  if (job.profile && gpu && ran_through) profile_in_worker(job, stream, result, preload_wait_s);

  for (auto& rec : result.reps)
    if (!counted(rec)) {
      result.status = rec.status;
      result.message = rec.message;
    }
  if (result.reps.empty() && result.status == Status::Ok) {
    result.status = Status::Error;
    result.message = "no repetition ran";
  }
  return result;
}

}  // namespace dpgpu
