#include "measure.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "dpgpu/error.hpp"
#include "gpu_monitor.hpp"

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>
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

static std::string gib(std::uint64_t bytes) { return fmt::format("{:.2f} GiB", bytes / double(1ull << 30)); }

std::string memory_refusal(const CaseJob& job, bool check_device) {
  if (!job.solver->memory) return {};
  MemoryNeed need = job.solver->memory(*job.instance, job.params);
  if (need.host > 0) {
    auto avail = host_bytes_available();
    if (need.host > avail)
      return fmt::format("needs {} bytes ({}) of host memory, {} bytes ({}) available", need.host, gib(need.host),
                         avail, gib(avail));
  }
#if DPGPU_WITH_CUDA
  if (check_device && need.device > 0) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess && need.device > free)
      return fmt::format("needs {} bytes ({}) of device memory, {} bytes ({}) free", need.device, gib(need.device),
                         free, gib(free));
  }
#else
  (void)check_device;
#endif
  return {};
}

namespace {

// One solve, timed by the Context, then checked outside the timed region.
RepRecord solve_once(const CaseJob& job, Context::Clock::time_point deadline, void* stream,
                     std::vector<Context::SeriesPoint>* series = nullptr) {
  RepRecord rec;
  try {
    Context ctx(job.solver->backend, deadline, job.verbose, stream);
    if (series) ctx.want_series();
    ctx.begin();
    AnyOutcome out = job.solver->solve(*job.instance, job.params, ctx);
    ctx.end();
    rec.time_s = ctx.elapsed_s();
    rec.phases = ctx.phase_seconds();
    rec.counters = ctx.counters();
    if (ctx.device_peak() > 0) rec.counters["peak_device_bytes"] = double(ctx.device_peak());
    rec.objective = out.objective;
    rec.checksum = out.checksum;
    if (series) *series = ctx.series_points();

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
  } catch (const std::bad_alloc&) {
    rec.status = Status::Oom;
    rec.message = "host memory allocation failed (std::bad_alloc)";
  } catch (const std::exception& e) {
    rec.status = Status::Error;
    rec.message = e.what();
  }
  return rec;
}

// Keeps Google Benchmark's JSON for the case: its context and the benchmark entries.
nlohmann::json run_benchmark(const std::string& name, int repetitions,
                             const std::function<void(benchmark::State&)>& body) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(name.c_str(), body)
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  std::ostringstream json, errors;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&json);
  reporter.SetErrorStream(&errors);
  benchmark::RunSpecifiedBenchmarks(&reporter, ".");
  benchmark::ClearRegisteredBenchmarks();
  // Google Benchmark prints NaN/inf (e.g. the coefficient of variation of zero times),
  // which is not JSON; those become null.
  static const std::regex non_finite(R"(:\s*-?(nan|NaN|inf|Infinity)\b)");
  return nlohmann::json::parse(std::regex_replace(json.str(), non_finite, ": null"));
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
  return {{"sm_clock_mhz", s->sm_clock_mhz}, {"memory_clock_mhz", s->memory_clock_mhz},
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
    if (flush_) cudaFree(flush_);
    if (s_) cudaStreamDestroy(s_);
#endif
  }
  void* get() const { return s_; }

  // Overwrites a buffer twice the L2 size on the stream, so the next solve starts cold.
  void flush_l2() {
#if DPGPU_WITH_CUDA
    if (!s_) return;
    if (!flush_) {
      int dev = 0, l2 = 0;
      cudaGetDevice(&dev);
      cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
      flush_bytes_ = std::size_t(std::max(l2, 1 << 20)) * 2;
      if (cudaMalloc(&flush_, flush_bytes_) != cudaSuccess) {
        flush_ = nullptr;
        throw std::runtime_error("cold: cannot allocate the L2 flush buffer");
      }
    }
    cudaMemsetAsync(flush_, ++flushes_ & 0xff, flush_bytes_, s_);
    cudaStreamSynchronize(s_);
#endif
  }

 private:
#if DPGPU_WITH_CUDA
  cudaStream_t s_ = nullptr;
  void* flush_ = nullptr;
  std::size_t flush_bytes_ = 0;
  int flushes_ = 0;
#else
  void* s_ = nullptr;
#endif
};

}  // namespace

CaseResult measure_case(const CaseJob& job) {
  CaseResult result;
  CaseStream stream(job.solver->backend);
  auto deadline = Context::Clock::now() + std::chrono::duration_cast<Context::Clock::duration>(
                                              std::chrono::duration<double>(job.timeout_s));
  for (int w = 0; w < job.warmup; ++w) {
    RepRecord rec = solve_once(job, deadline, stream.get());
    if (rec.status != Status::Ok && rec.status != Status::Invalid) {
      result.status = rec.status;
      result.message = "warm-up: " + rec.message;
      return result;
    }
  }

  const double work = job.instance->work;
  auto body = [&](benchmark::State& state) {
    for (auto _ : state) {
      if (failed(result)) {
        state.SkipWithError("an earlier repetition failed");
        break;
      }
      if (job.cold) stream.flush_l2();
      const auto iteration_start = std::chrono::steady_clock::now();
      RepRecord rec = solve_once(job, deadline, stream.get());
      rec.rep = int(result.reps.size());
      state.SetIterationTime(rec.time_s);
      if (rec.status == Status::Ok || rec.status == Status::Invalid) {
        state.counters["work"] = work;
        state.counters["throughput"] = rec.time_s > 0 ? work / rec.time_s : 0;
        for (auto& [k, v] : rec.phases) state.counters["phase." + k + "_s"] = v;
        for (auto& [k, v] : rec.counters) state.counters["c." + k] = v;
      } else {
        state.SkipWithError(rec.message.c_str());
      }
      rec.harness_s = std::max(0.0, std::chrono::duration<double>(std::chrono::steady_clock::now() - iteration_start).count() - rec.time_s);
      result.reps.push_back(std::move(rec));
    }
  };
  if (job.solver->backend == Backend::Gpu) result.gpu_start = sample_json();
  auto start = std::chrono::steady_clock::now();
  // The stopping rule: the minimum count first, then one more at a time while noisy.
  nlohmann::json gb = run_benchmark(job.name, job.repetitions, body);
  result.benchmarks = gb.value("benchmarks", nlohmann::json::array());
  result.benchmark_context = gb.value("context", nlohmann::json());
  while (job.max_noise && !failed(result) && int(result.reps.size()) < job.max_repetitions &&
         noise_of(result.reps) > *job.max_noise && Context::Clock::now() < deadline) {
    for (auto& b : run_benchmark(job.name, 1, body).value("benchmarks", nlohmann::json::array()))
      result.benchmarks.push_back(b);
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double in_iterations = 0;
  for (auto& r : result.reps) in_iterations += r.time_s + r.harness_s;
  result.fixed_s = std::max(0.0, result.wall_s - in_iterations);
  if (job.solver->backend == Backend::Gpu) result.gpu_end = sample_json();

  // After the timed repetitions, so recording the series cannot disturb them.
  if (job.series && !failed(result)) {
    RepRecord rec = solve_once(job, deadline, stream.get(), &result.series);
    if (rec.status != Status::Ok) result.series_message = "series run: " + rec.message;
    if (rec.status == Status::Ok && result.series.empty())
      result.series_message = "series run: the solver records no series";
  }

  for (auto& rec : result.reps)
    if (rec.status != Status::Ok && rec.status != Status::Invalid) {
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
