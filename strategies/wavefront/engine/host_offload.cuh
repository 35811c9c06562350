// host_offload.cuh — streams finished diagonals (or their decision bits) from the GPU to host
// memory while the GPU goes on computing: the paper's asynchronous offload.
//
// The compute stream produces a chunk in device memory and calls push(). A second stream waits
// on an event of the compute stream (a GPU-side wait: the compute stream never blocks), copies
// the chunk into a slot of a pinned staging ring, and records a "copied" event. When every slot
// is in use, push() first drains the oldest: the host waits for its copied event and moves the
// bytes to their final place in ordinary host memory. That host wait is the only stall, and only
// when the ring would be overrun; it is counted (seconds and times). The device source of a
// chunk must stay unchanged until its copy has run: push() returns the event after which the
// source may be overwritten, and the compute stream must wait on it (release()) before reusing
// that device memory — again a GPU-side wait, normally already satisfied.
// Large slots are moved to their final place by several host threads: one thread copying
// into freshly allocated (not yet faulted-in) pages moves only a few GB/s.
#pragma once
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <thread>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/context.hpp"

namespace dpgpu::wavefront {

class HostOffload {
 public:
  // `slots` × `slot_bytes` of pinned staging; `destination` receives every chunk at the
  // offset given to push(), and must stay alive until finish().
  HostOffload(std::size_t slots, std::size_t slot_bytes, std::uint8_t* destination)
      : slot_bytes_(slot_bytes), staging_(slots * slot_bytes), dest_(destination), slots_(slots) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
    for (auto& s : slots_) {
      CUDA_CHECK(cudaEventCreateWithFlags(&s.produced, cudaEventDisableTiming));
      CUDA_CHECK(cudaEventCreateWithFlags(&s.copied, cudaEventDisableTiming));
    }
  }
  ~HostOffload() {
    cudaStreamSynchronize(copy_);
    for (auto& s : slots_) {
      cudaEventDestroy(s.produced);
      cudaEventDestroy(s.copied);
    }
    cudaStreamDestroy(copy_);
  }
  HostOffload(const HostOffload&) = delete;
  HostOffload& operator=(const HostOffload&) = delete;

  // Queues the copy of `bytes` (≤ slot_bytes) at `device_src` to destination + `dest_offset`,
  // after all work already queued on `compute`. Returns the event after which `device_src`
  // may be overwritten.
  cudaEvent_t push(const void* device_src, std::size_t bytes, std::size_t dest_offset,
                   cudaStream_t compute) {
    Slot& s = slots_[next_];
    if (s.busy) drain(s);
    CUDA_CHECK(cudaEventRecord(s.produced, compute));
    CUDA_CHECK(cudaStreamWaitEvent(copy_, s.produced, 0));
    CUDA_CHECK(cudaMemcpyAsync(staging_.get() + next_ * slot_bytes_, device_src, bytes,
                               cudaMemcpyDeviceToHost, copy_));
    CUDA_CHECK(cudaEventRecord(s.copied, copy_));
    s.busy = true;
    s.bytes = bytes;
    s.offset = dest_offset;
    s.index = next_;
    next_ = (next_ + 1) % slots_.size();
    bytes_ += bytes;
    ++chunks_;
    return s.copied;
  }

  // The compute stream waits (on the GPU) until `copied` has happened.
  static void release(cudaEvent_t copied, cudaStream_t compute) {
    CUDA_CHECK(cudaStreamWaitEvent(compute, copied, 0));
  }

  // Records `e` on the copy stream after every copy queued so far: "all of these are copied",
  // for a caller whose chunk took several pushes (each push reuses its slot's own event).
  void mark(cudaEvent_t e) { CUDA_CHECK(cudaEventRecord(e, copy_)); }

  // Drains every slot still in flight; after this the destination holds every chunk.
  void finish() {
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      Slot& s = slots_[(next_ + k) % slots_.size()];
      if (s.busy) drain(s);
    }
  }

  void report(Context& ctx) const {
    ctx.set("bytes_offloaded", double(bytes_));
    ctx.set("offload_chunks", double(chunks_));
    ctx.set("offload_host_waits", double(waits_));
    ctx.set("offload_wait_s", wait_s_);
  }

 private:
  struct Slot {
    cudaEvent_t produced = nullptr, copied = nullptr;
    bool busy = false;
    std::size_t bytes = 0, offset = 0, index = 0;
  };
  void drain(Slot& s) {
    if (cudaEventQuery(s.copied) == cudaErrorNotReady) {
      auto t0 = std::chrono::steady_clock::now();
      CUDA_CHECK(cudaEventSynchronize(s.copied));
      wait_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++waits_;
    }
    parallel_copy(dest_ + s.offset, staging_.get() + s.index * slot_bytes_, s.bytes);
    s.busy = false;
  }

  static void parallel_copy(std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes) {
    constexpr std::size_t kPerThread = std::size_t(256) << 10;
    const std::size_t threads = std::min<std::size_t>(
        {bytes / kPerThread, std::max(1u, std::thread::hardware_concurrency() / 2), 8});
    if (threads < 2) {
      std::memcpy(dst, src, bytes);
      return;
    }
    std::vector<std::thread> pool;
    const std::size_t part = (bytes + threads - 1) / threads;
    for (std::size_t t = 0; t < threads; ++t) {
      const std::size_t lo = t * part, hi = std::min(bytes, lo + part);
      if (lo < hi) pool.emplace_back([=] { std::memcpy(dst + lo, src + lo, hi - lo); });
    }
    for (auto& th : pool) th.join();
  }

  std::size_t slot_bytes_;
  dpgpu::gpu::PinnedBuffer<std::uint8_t> staging_;
  std::uint8_t* dest_;
  std::vector<Slot> slots_;
  std::size_t next_ = 0;
  cudaStream_t copy_ = nullptr;
  std::size_t bytes_ = 0, chunks_ = 0, waits_ = 0;
  double wait_s_ = 0;
};

}  // namespace dpgpu::wavefront
