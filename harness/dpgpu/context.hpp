// context.hpp — what a solver may use while it runs: phases, counters, its CUDA stream,
// a deadline, a device-memory accountant and a log. One Context per repetition.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dpgpu {

enum class Backend { Cpu, Gpu };

class Context;

// Makes CUDA device `device` current while it lives and, when it ends, the device that was
// current before it (always set again, even where the code inside switched cards). device < 0 (a CPU solver) or a build without CUDA: does nothing. The
// Context creates its events under one, so a solver that leaves another card current cannot
// make the next event land on the wrong device (issue 37).
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
};

// Receives the sampled marks when dpgpu profiles inside this process (the CUPTI backend,
// profiler_cupti.hpp): begin() before the marked launch, end() after it.
class LaunchMarkSink {
 public:
  virtual ~LaunchMarkSink() = default;
  virtual void begin() = 0;
  virtual void end() = 0;
};

// Marks one kernel launch for the profiler: `{ auto mark = ctx.profiled_launch(); k<<<...>>>(); }`.
// When dpgpu profiles a case that launches more kernels than its `max_launches`, every k-th
// marked launch is sampled, so the sample spreads over the whole run: under ncu (profiling
// off from the start) a sampled mark is a cudaProfilerStart/Stop range; in-process it goes
// to the Context's LaunchMarkSink.
class ProfiledLaunch {
 public:
  ProfiledLaunch(bool sampled, LaunchMarkSink* sink);
  ~ProfiledLaunch();
  ProfiledLaunch(const ProfiledLaunch&) = delete;
  ProfiledLaunch& operator=(const ProfiledLaunch&) = delete;

 private:
  bool sampled_;
  LaunchMarkSink* sink_;
};

// RAII phase: an NVTX range, timed by CUDA events on the solver's stream (GPU solvers)
// or by the steady clock (CPU solvers). Phases of one name add up.
class Phase {
 public:
  Phase(Context& ctx, std::string name);
  ~Phase();
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  Context& ctx_;
  std::size_t index_;
};

class Context {
 public:
  using Clock = std::chrono::steady_clock;

  // `stream`: a cudaStream_t the runner owns for the whole case (so creating one stays out of
  // the repetitions); nullptr makes the Context create and destroy its own.
  Context(Backend backend, Clock::time_point deadline, bool verbose = false,
          void* stream = nullptr);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Backend backend() const { return backend_; }

  // Standard phase names: "alloc", "h2d", "compute", "d2h"; others become columns too.
  [[nodiscard]] Phase phase(std::string name) { return Phase(*this, std::move(name)); }

  // Counters with units in their names where it helps ("bytes_offloaded", "kernel_launches").
  void set(const std::string& counter, double value) { counters_[counter] = value; }
  void add(const std::string& counter, double delta) { counters_[counter] += delta; }

  // Wrap each kernel launch (see ProfiledLaunch); counts launches as "annotated_launches".
  [[nodiscard]] ProfiledLaunch profiled_launch();

  // The stream a GPU solver must issue its work on (a cudaStream_t; nullptr for CPU solvers).
  void* stream() const { return stream_; }
  // The CUDA device of stream() (-1 for CPU solvers). Its events are created on this device,
  // whatever device the solver has made current.
  int device() const { return device_; }

  // Long CPU loops poll this; it throws dpgpu::Timeout once the case's deadline has passed.
  void check_deadline() const;
  bool expired() const { return Clock::now() > deadline_; }

  // Device-memory accountant (DeviceBuffer calls these): peak bytes become a counter.
  void device_alloc(std::size_t bytes);
  void device_free(std::size_t bytes);
  std::size_t device_peak() const { return device_peak_; }

  void log(const std::string& line) const;  // to stderr when verbose

  // Per-step series (e.g. the time of each DP diagonal) for series.csv. Recording them would
  // disturb timed runs, so the harness asks only in one extra, untimed run per case when the
  // experiment says `series: true`; otherwise series_wanted() is false and series() ignored.
  bool series_wanted() const { return series_wanted_; }
  void series(const std::string& name, std::size_t index, double value);

  struct SeriesPoint {
    std::string name;
    std::size_t index;
    double value;
  };

  // --- used by the runner, not by solvers ---
  void begin();              // marks the start of the measured region (records the start event)
  void end();                // marks its end and synchronizes the stream
  double elapsed_s() const;  // GPU: event time start→end; CPU: steady clock
  std::map<std::string, double> phase_seconds() const;
  const std::map<std::string, double>& counters() const { return counters_; }
  void want_series() { series_wanted_ = true; }
  // Every `stride`-th marked launch goes to `sink` (the in-process profiler's solve).
  void profile_marks(LaunchMarkSink* sink, std::uint64_t stride) {
    mark_sink_ = sink, profile_stride_ = stride;
  }
  const std::vector<SeriesPoint>& series_points() const { return series_; }

 private:
  friend class Phase;
  std::size_t open_phase(const std::string& name);
  void close_phase(std::size_t index);

  struct PhaseRecord;  // host times or CUDA events
  Backend backend_;
  Clock::time_point deadline_;
  bool verbose_;
  void* stream_ = nullptr;
  int device_ = -1;
  bool owns_stream_ = false;
  std::vector<std::unique_ptr<PhaseRecord>> phases_;
  std::unique_ptr<PhaseRecord> whole_;
  std::map<std::string, double> counters_;
  bool series_wanted_ = false;
  std::vector<SeriesPoint> series_;
  std::size_t device_now_ = 0, device_peak_ = 0;
  std::uint64_t annotated_launches_ = 0;
  std::uint64_t profile_stride_ = 0;  // from DPGPU_PROFILE_STRIDE or profile_marks; 0: not sampling
  LaunchMarkSink* mark_sink_ = nullptr;
};

}  // namespace dpgpu
