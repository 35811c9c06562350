// Phases are NVTX ranges timed by CUDA events (GPU solvers) or the steady clock (CPU solvers).
#include "dpgpu/context.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "dpgpu/error.hpp"

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#define DPGPU_CUDA_OK(call)                                                         \
  do {                                                                              \
    cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess)                                                          \
      throw std::runtime_error(std::string(#call) + ": " + cudaGetErrorString(e_)); \
  } while (0)
#endif

namespace dpgpu {

struct Context::PhaseRecord {
  std::string name;
  Clock::time_point host_start, host_end;
#if DPGPU_WITH_CUDA
  cudaEvent_t start = nullptr, stop = nullptr;
#endif
  ~PhaseRecord() {
#if DPGPU_WITH_CUDA
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
#endif
  }
};

DeviceScope::DeviceScope(int device) {
#if DPGPU_WITH_CUDA
  if (device < 0) return;
  DPGPU_CUDA_OK(cudaGetDevice(&previous_));
  if (previous_ != device) DPGPU_CUDA_OK(cudaSetDevice(device));
#else
  (void)device;
#endif
}

DeviceScope::~DeviceScope() {
#if DPGPU_WITH_CUDA
  if (previous_ >= 0) cudaSetDevice(previous_);
#endif
}

Context::Context(Backend backend, Clock::time_point deadline, bool verbose, void* stream)
    : backend_(backend), deadline_(deadline), verbose_(verbose), stream_(stream) {
  if (const char* stride = std::getenv("DPGPU_PROFILE_STRIDE"))
    profile_stride_ = std::strtoull(stride, nullptr, 10);
#if DPGPU_WITH_CUDA
  if (backend_ == Backend::Gpu && stream_)
    DPGPU_CUDA_OK(cudaStreamGetDevice(static_cast<cudaStream_t>(stream_), &device_));
  if (backend_ == Backend::Gpu && !stream_) {
    DPGPU_CUDA_OK(cudaGetDevice(&device_));
    owns_stream_ = true;
    cudaStream_t s;
    DPGPU_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    stream_ = s;
  }
#else
  if (backend_ == Backend::Gpu) throw std::runtime_error("dpgpu was built without CUDA");
#endif
}

Context::~Context() {
  phases_.clear();
  whole_.reset();
#if DPGPU_WITH_CUDA
  if (owns_stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
#endif
}

std::size_t Context::open_phase(const std::string& name) {
  auto r = std::make_unique<PhaseRecord>();
  r->name = name;
#if DPGPU_WITH_CUDA
  nvtxRangePushA(name.c_str());
  if (backend_ == Backend::Gpu) {
    const DeviceScope on(device_);  // the stream's device, whatever the solver made current
    DPGPU_CUDA_OK(cudaEventCreate(&r->start));
    DPGPU_CUDA_OK(cudaEventCreate(&r->stop));
    DPGPU_CUDA_OK(cudaEventRecord(r->start, static_cast<cudaStream_t>(stream_)));
  }
#endif
  r->host_start = Clock::now();
  phases_.push_back(std::move(r));
  return phases_.size() - 1;
}

void Context::close_phase(std::size_t index) {
  auto& r = *phases_.at(index);
#if DPGPU_WITH_CUDA
  if (backend_ == Backend::Gpu) {
    const DeviceScope on(device_);
    DPGPU_CUDA_OK(cudaEventRecord(r.stop, static_cast<cudaStream_t>(stream_)));
  }
  nvtxRangePop();
#endif
  r.host_end = Clock::now();
}

Phase::Phase(Context& ctx, std::string name) : ctx_(ctx), index_(ctx.open_phase(name)) {}
Phase::~Phase() {
  try {
    ctx_.close_phase(index_);
  } catch (...) {
    // A failing event record shows up again at Context::end(); never throw from here.
  }
}

ProfiledLaunch::ProfiledLaunch(bool sampled, LaunchMarkSink* sink)
    : sampled_(sampled), sink_(sink) {
  if (!sampled_) return;
  if (sink_) {
    sink_->begin();
    return;
  }
#if DPGPU_WITH_CUDA
  cudaProfilerStart();
#endif
}
ProfiledLaunch::~ProfiledLaunch() {
  if (!sampled_) return;
  if (sink_) {
    sink_->end();
    return;
  }
#if DPGPU_WITH_CUDA
  cudaProfilerStop();
#endif
}

ProfiledLaunch Context::profiled_launch() {
  const std::uint64_t index = annotated_launches_++;
  counters_["annotated_launches"] = double(annotated_launches_);
  return ProfiledLaunch(profile_stride_ > 0 && index % profile_stride_ == 0, mark_sink_);
}

void Context::check_deadline() const {
  if (expired()) throw Timeout("deadline passed");
}

void Context::device_alloc(std::size_t bytes) {
  device_now_ += bytes;
  if (device_now_ > device_peak_) device_peak_ = device_now_;
}
void Context::device_free(std::size_t bytes) { device_now_ -= std::min(bytes, device_now_); }

void Context::log(const std::string& line) const {
  if (verbose_) std::fprintf(stderr, "  %s\n", line.c_str());
}

void Context::series(const std::string& name, std::size_t index, double value) {
  if (series_wanted_) series_.push_back({name, index, value});
}

void Context::begin() {
  whole_ = std::make_unique<PhaseRecord>();
  whole_->name = "total";
#if DPGPU_WITH_CUDA
  if (backend_ == Backend::Gpu) {
    const DeviceScope on(device_);  // events on the stream's device (issue 37)
    DPGPU_CUDA_OK(cudaEventCreate(&whole_->start));
    DPGPU_CUDA_OK(cudaEventCreate(&whole_->stop));
    DPGPU_CUDA_OK(cudaEventRecord(whole_->start, static_cast<cudaStream_t>(stream_)));
  }
#endif
  whole_->host_start = Clock::now();
}

void Context::end() {
#if DPGPU_WITH_CUDA
  if (backend_ == Backend::Gpu) {
    const DeviceScope on(device_);
    auto s = static_cast<cudaStream_t>(stream_);
    DPGPU_CUDA_OK(cudaEventRecord(whole_->stop, s));
    DPGPU_CUDA_OK(cudaStreamSynchronize(s));
    DPGPU_CUDA_OK(cudaGetLastError());
  }
#endif
  whole_->host_end = Clock::now();
}

static double seconds(const Context::Clock::time_point& a, const Context::Clock::time_point& b) {
  return std::chrono::duration<double>(b - a).count();
}

double Context::elapsed_s() const {
#if DPGPU_WITH_CUDA
  if (backend_ == Backend::Gpu) {
    float ms = 0;
    DPGPU_CUDA_OK(cudaEventElapsedTime(&ms, whole_->start, whole_->stop));
    return ms * 1e-3;
  }
#endif
  return seconds(whole_->host_start, whole_->host_end);
}

std::map<std::string, double> Context::phase_seconds() const {
  std::map<std::string, double> out;
  for (auto& r : phases_) {
    double s = seconds(r->host_start, r->host_end);
#if DPGPU_WITH_CUDA
    if (backend_ == Backend::Gpu) {
      float ms = 0;
      DPGPU_CUDA_OK(cudaEventElapsedTime(&ms, r->start, r->stop));
      s = ms * 1e-3;
    }
#endif
    out[r->name] += s;
  }
  return out;
}

}  // namespace dpgpu
