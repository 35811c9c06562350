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
#include "records/human_format.hpp"
#include "measure/energy_window.hpp"
#include "profile/profiler_cupti.hpp"

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>

#include "device/cache_flush.hpp"
#endif

namespace dpgpu {

std::uint64_t host_bytes_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return UINT64_MAX;
}


std::string memory_refusal(const CaseJob& job, bool check_device) {
  if (!job.solver->memory) return {};
  MemoryNeed need = job.solver->memory(*job.instance, job.params);
  if (need.host > 0) {
    auto avail = host_bytes_available();
    if (need.host > avail)
      return fmt::format("needs {} of host memory, {} available", format_bytes(need.host), format_bytes(avail));
  }
#if DPGPU_WITH_CUDA
  if (check_device && need.device > 0) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess && need.device > free)
      return fmt::format("needs {} of device memory, {} free", format_bytes(need.device), format_bytes(free));
  }
#else
  (void)check_device;
#endif
  return {};
}

namespace {

// One solve, timed by the Context, then checked outside the timed region.
// `sink`: where every `stride`-th marked launch goes (the in-worker profiler's solve).
RepRecord solve_once(const CaseJob& job, Context::Clock::time_point deadline, void* stream,
                     std::vector<Context::SeriesPoint>* series = nullptr, LaunchMarkSink* sink = nullptr,
                     std::uint64_t stride = 0, bool check = true) {
  RepRecord rec;
  try {
    Context ctx(job.solver->backend, deadline, job.verbose, stream);
    if (series) ctx.want_series();
    if (sink) ctx.profile_marks(sink, stride);
    ctx.begin();
    AnyOutcome out = job.solver->solve(*job.instance, job.params, ctx);
    ctx.end();
    rec.time_s = ctx.elapsed_s();
    rec.phases = ctx.phase_seconds();
    rec.counters = ctx.counters();
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
        problems.push_back(fmt::format("certificate has objective {}, solver reported {}", verdict->objective,
                                       out.objective));
    }
    if (job.instance->known_optimum) {
      bool match = *job.instance->known_optimum == out.objective;
      rec.valid = rec.valid.value_or(true) && match;
      if (!match) problems.push_back(fmt::format("known optimum is {}, solver reported {}", *job.instance->known_optimum, out.objective));
    }
    if (!problems.empty()) {
      rec.status = Status::Invalid;
      rec.message = fmt::format("{}", fmt::join(problems, "; "));
    }
  } catch (const Timeout& e) {
    rec.status = Status::Timeout;
    rec.message = fmt::format("timed out after {} s: {}", job.timeout_s, e.what());
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

// Relative standard deviation of the times of the repetitions that ran.
double noise_of(const std::vector<RepRecord>& reps) {
  std::vector<double> t;
  for (auto& r : reps)
    if (r.status == Status::Ok || r.status == Status::Invalid) t.push_back(r.time_s);
  if (t.size() < 2) return 0;
  double mean = 0, var = 0;
  for (double x : t) mean += x;
  mean /= double(t.size());
  for (double x : t) var += (x - mean) * (x - mean);
  return mean > 0 ? std::sqrt(var / double(t.size() - 1)) / mean : 0;
}

bool failed(const CaseResult& r) {
  return !r.reps.empty() && r.reps.back().status != Status::Ok && r.reps.back().status != Status::Invalid;
}

nlohmann::json sample_json() {
  auto s = sample_gpu();
  if (!s) return nullptr;
  return {{"name", s->name}, {"uuid", s->uuid}, {"sm_clock_mhz", s->sm_clock_mhz}, {"memory_clock_mhz", s->memory_clock_mhz},
          {"temperature_c", s->temperature_c}, {"reasons", s->reasons}};
}

// One CUDA stream for all solves of a GPU case, so its creation is not repeated per solve.
class CaseStream {
 public:
  explicit CaseStream(Backend b) {
#if DPGPU_WITH_CUDA
    if (b == Backend::Gpu && cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking) != cudaSuccess) s_ = nullptr;
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

static bool ran(const RepRecord& r) { return r.status == Status::Ok || r.status == Status::Invalid; }

// Closes the energy window opened before the timed repetitions, after extra back-to-back
// solves (untimed, unchecked) while it is shorter than energy_window_s and time is left.
static EnergyRecord close_energy_window(const CaseJob& job, EnergyWindow& window, const CaseResult& result,
                                        Context::Clock::time_point deadline, CaseStream& stream) {
  int solves = 0;
  double solve_s = 0;
  for (auto& r : result.reps)
    if (ran(r)) ++solves, solve_s += r.time_s;
  const bool ok = !failed(result) && result.status == Status::Ok;
  while (ok && window.available() && window.elapsed_s() < job.energy_window_s && Context::Clock::now() < deadline) {
    if (job.cold) stream.flush_l2();
    RepRecord rec = solve_once(job, deadline, stream.get(), nullptr, nullptr, 0, /*check=*/false);
    if (!ran(rec)) break;
    ++solves, solve_s += rec.time_s;
  }
  return window.close(solves, solve_s);
}

CaseResult measure_case(const CaseJob& job) {
  using Clock = Context::Clock;
  CaseResult result;
  CaseStream stream(job.solver->backend);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(job.timeout_s));
  // timeout_s holds for warm-ups and repetitions together: checked before every solve, and
  // inside solvers that poll ctx.check_deadline().
  auto out_of_time = [&](const std::string& done) {
    result.status = Status::Timeout;
    result.message = fmt::format("timeout_s {} reached after {}", job.timeout_s, done);
  };
  // The card's power before the case (energy_window.hpp): to subtract for the energy above idle.
  const std::optional<double> idle_w = job.solver->backend == Backend::Gpu ? idle_gpu_power_w() : std::nullopt;
  for (int w = 0; w < job.warmup; ++w) {
    if (Clock::now() > deadline) {
      out_of_time(fmt::format("{} of {} warm-up runs", w, job.warmup));
      return result;
    }
    RepRecord rec = solve_once(job, deadline, stream.get());
    if (!ran(rec)) {
      result.status = rec.status;
      result.message = "warm-up: " + rec.message;
      return result;
    }
  }

  // The in-worker profiler's host library finishes loading before the timed solves begin.
  const double preload_wait_s = job.profile ? cupti_preload_wait() : 0.0;
  if (job.solver->backend == Backend::Gpu) result.gpu_start = sample_json();
  EnergyWindow energy(job.solver->backend, idle_w);
  const auto start = std::chrono::steady_clock::now();
  // The stopping rule: the minimum count first, then one more at a time while noisy.
  for (;;) {
    const int n = int(result.reps.size());
    if (n >= job.repetitions &&
        (!job.max_noise || n >= job.max_repetitions || noise_of(result.reps) <= *job.max_noise || Clock::now() > deadline))
      break;
    if (Clock::now() > deadline) {
      out_of_time(fmt::format("{} of {} repetitions ({} warm-up runs before them)", n, job.repetitions, job.warmup));
      break;
    }
    if (job.cold) stream.flush_l2();
    const auto iteration_start = std::chrono::steady_clock::now();
    RepRecord rec = solve_once(job, deadline, stream.get());
    rec.rep = n;
    rec.harness_s = std::max(
        0.0, std::chrono::duration<double>(std::chrono::steady_clock::now() - iteration_start).count() - rec.time_s);
    const bool stop = !ran(rec);
    result.reps.push_back(std::move(rec));
    if (stop) break;
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double in_iterations = 0;
  for (auto& r : result.reps) in_iterations += r.time_s + r.harness_s;
  result.fixed_s = std::max(0.0, result.wall_s - in_iterations);
  if (job.solver->backend == Backend::Gpu) result.gpu_end = sample_json();
  result.energy = close_energy_window(job, energy, result, deadline, stream);

  // After the timed repetitions, so recording the series cannot disturb them.
  if (job.series && !failed(result) && result.status == Status::Ok) {
    RepRecord rec = solve_once(job, deadline, stream.get(), &result.series);
    if (rec.status != Status::Ok) result.series_message = "series run: " + rec.message;
    if (rec.status == Status::Ok && result.series.empty())
      result.series_message = "series run: the solver records no series";
  }

  // Last, so neither timings nor the series see the profiler; a fresh timeout_s for it.
  if (job.profile && job.solver->backend == Backend::Gpu && !failed(result) && result.status == Status::Ok) {
    const auto& counters = result.reps.front().counters;
    auto count = [&](const char* key) { return counters.count(key) ? counters.at(key) : 0.0; };
    const auto profile_deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                     std::chrono::duration<double>(job.timeout_s));
    result.profile = profile_with_cupti(
        *job.profile, count("kernel_launches"), count("annotated_launches"),
        [&](LaunchMarkSink* sink, std::uint64_t stride) -> std::string {
          RepRecord rec = solve_once(job, profile_deadline, stream.get(), nullptr, sink, stride);
          return rec.status == Status::Ok ? "" : fmt::format("{}: {}", to_string(rec.status), rec.message);
        });
    result.profile->wall_s += preload_wait_s;
  }

  for (auto& rec : result.reps)
    if (!ran(rec)) {
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
