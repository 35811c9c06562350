// decision_store.cuh — where each step's decision data (LCS and knapsack decision bits, TSP
// argmins) is written, and how it reaches host memory for the reconstruction.
//
// The adapter states the layout: decision_offset(s) bytes before step s in one host array
// (offset(steps) = total), steps grouped into chunks of `chunk_steps`, the largest chunk, and
// the device staging for two chunks. With offload, chunk c is written to the staging buffer
// (even chunks from its front, odd ones from its back: adjacent chunks never overlap), then
// pushed through HostOffload (pinned ring, second stream) while chunk c + 1 computes; before
// chunk c + 2 reuses that end the compute stream waits on the GPU for the copy. That wait is
// timed with a pair of events around it (offload_stream_wait_s); HostOffload counts the host's
// waits. Without offload every step is written to its place in one device array, and the
// adapter reads it there (or copies it back).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/context.hpp"
#include "host_array.hpp"
#include "host_offload.cuh"

namespace dpgpu::wavefront {

struct DecisionShape {
  std::int64_t chunk_steps = 1;       // steps per offloaded chunk
  std::uint64_t chunk_max_bytes = 0;  // the largest chunk
  std::uint64_t staging_bytes = 0;    // offload: device bytes for two adjacent chunks
  bool zero = false;  // zero-fill the device memory once (words of unlaunched warps)
};

// Events recorded around each GPU-side wait of the compute stream; summed when reused or read.
class StreamWaitClock {
 public:
  ~StreamWaitClock() {
    for (auto& p : pairs_) {
      cudaEventDestroy(p.before);
      cudaEventDestroy(p.after);
    }
  }
  void wait(cudaStream_t stream, cudaEvent_t on) {
    if (pairs_.size() < kPairs) {
      pairs_.emplace_back();
      CUDA_CHECK(cudaEventCreate(&pairs_.back().before));
      CUDA_CHECK(cudaEventCreate(&pairs_.back().after));
    }
    Pair& p = pairs_[next_ % kPairs];
    if (p.used) collect(p);  // kPairs waits ago: long done (the launch queue is far shorter)
    ++next_;
    CUDA_CHECK(cudaEventRecord(p.before, stream));
    CUDA_CHECK(cudaStreamWaitEvent(stream, on, 0));
    CUDA_CHECK(cudaEventRecord(p.after, stream));
    p.used = true;
  }
  // After the stream has been synchronized.
  double seconds() {
    for (auto& p : pairs_)
      if (p.used) collect(p);
    return seconds_;
  }
  std::size_t waits() const { return next_; }

 private:
  static constexpr std::size_t kPairs = 256;
  struct Pair {
    cudaEvent_t before = nullptr, after = nullptr;
    bool used = false;
  };
  void collect(Pair& p) {
    float ms = 0;
    CUDA_CHECK(cudaEventSynchronize(p.after));
    CUDA_CHECK(cudaEventElapsedTime(&ms, p.before, p.after));
    seconds_ += ms / 1e3;
    p.used = false;
  }
  std::vector<Pair> pairs_;
  std::size_t next_ = 0;
  double seconds_ = 0;
};

// One solve's decision data. `Offsets` is the adapter (decision_offset(s)).
template <class Offsets>
class DecisionStore {
 public:
  DecisionStore(const Offsets& layout, std::int64_t steps, const DecisionShape& shape, bool offload,
                std::size_t slots, std::uint64_t slot_bytes, Context& ctx, cudaStream_t stream)
      : layout_(layout), steps_(steps), shape_(shape), offload_(offload), stream_(stream) {
    total_ = layout.decision_offset(steps);
    if (offload_) {
      device_ = gpu::DeviceBuffer<std::uint8_t>(std::size_t(shape.staging_bytes), &ctx);
      host_ = host_array(total_, "the decision data of every step");
      slot_bytes_ = std::max<std::uint64_t>(
          1, slot_bytes ? std::min(slot_bytes, shape.chunk_max_bytes) : shape.chunk_max_bytes);
      ring_ = std::make_unique<HostOffload>(slots, std::size_t(slot_bytes_), host_.get());
      for (auto& e : free_) CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    } else {
      device_ = gpu::DeviceBuffer<std::uint8_t>(std::size_t(total_), &ctx);
    }
    if (shape.zero && device_.bytes())
      CUDA_CHECK(cudaMemsetAsync(device_.get(), 0, device_.bytes(), stream));
  }
  ~DecisionStore() {
    ring_.reset();  // waits for its copies before the events go
    for (auto e : free_)
      if (e) cudaEventDestroy(e);
  }
  DecisionStore(const DecisionStore&) = delete;
  DecisionStore& operator=(const DecisionStore&) = delete;

  // Where step s writes; call for s = 0, 1, 2, ... in order (chunks begin here).
  std::uint8_t* step(std::int64_t s) {
    if (!offload_) return device_.get() + layout_.decision_offset(s);
    if (s % shape_.chunk_steps == 0) begin_chunk(s / shape_.chunk_steps);
    return device_.get() + place_ + (layout_.decision_offset(s) - chunk_first_);
  }
  // Step s is queued: when it ends a chunk, the chunk goes to the host.
  void stepped(std::int64_t s) {
    if (!offload_ || ((s + 1) % shape_.chunk_steps != 0 && s + 1 != steps_)) return;
    const std::uint64_t end = layout_.decision_offset(s + 1), bytes = end - chunk_first_;
    for (std::uint64_t off = 0; off < bytes; off += slot_bytes_)
      ring_->push(device_.get() + place_ + off, std::size_t(std::min(slot_bytes_, bytes - off)),
                  std::size_t(chunk_first_ + off), stream_);
    ring_->mark(free_[chunk_ % 2]);
  }
  // Every step's data in the host array (offload; call in the "d2h" phase).
  void finish() {
    if (ring_) ring_->finish();
  }

  // Without offload: copies every step's data from the device into the host array (on
  // `stream`; valid after it is synchronized). With offload the host array is filled already.
  void copy_to_host(cudaStream_t stream) {
    if (offload_ || host_) return;
    host_ = host_array(total_, "the decision data of every step");
    CUDA_CHECK(cudaMemcpyAsync(host_.get(), device_.get(), std::size_t(total_),
                               cudaMemcpyDeviceToHost, stream));
  }

  bool offloaded() const { return offload_; }
  const std::uint8_t* host() const { return host_.get(); }      // offload, or after copy_to_host()
  const std::uint8_t* device() const { return device_.get(); }  // no offload: every step's data
  std::uint64_t total_bytes() const { return total_; }

  // After the stream has been synchronized.
  void report(Context& ctx) {
    if (ring_) {
      ring_->report(ctx);
    } else {
      ctx.set("bytes_offloaded", 0);
      ctx.set("offload_chunks", 0);
      ctx.set("offload_host_waits", 0);
      ctx.set("offload_wait_s", 0);
    }
    ctx.set("offload_stream_wait_s", clock_.seconds());
    ctx.set("offload_stream_waits", double(clock_.waits()));
  }

 private:
  std::uint64_t chunk_bytes(std::int64_t c) const {
    const std::int64_t first = c * shape_.chunk_steps,
                       end = std::min(steps_, first + shape_.chunk_steps);
    return layout_.decision_offset(end) - layout_.decision_offset(first);
  }
  void begin_chunk(std::int64_t c) {
    chunk_ = c;
    chunk_first_ = layout_.decision_offset(c * shape_.chunk_steps);
    const std::uint64_t bytes = chunk_bytes(c);
    if (bytes > shape_.chunk_max_bytes ||
        (c > 0 && bytes + chunk_bytes(c - 1) > shape_.staging_bytes))
      throw std::logic_error(
          "gpu.wavefront engine: chunk " + std::to_string(c) + " of " + std::to_string(bytes) +
          " bytes does not fit the adapter's staging of " + std::to_string(shape_.staging_bytes) +
          " bytes (largest chunk " + std::to_string(shape_.chunk_max_bytes) + ")");
    place_ = c % 2 == 0 ? 0 : shape_.staging_bytes - bytes;
    // Chunk c − 2 used this end of the staging: its copies must have run (a GPU-side wait).
    if (c >= 2) clock_.wait(stream_, free_[c % 2]);
  }

  const Offsets& layout_;
  std::int64_t steps_;
  DecisionShape shape_;
  bool offload_;
  cudaStream_t stream_;
  std::uint64_t total_ = 0, slot_bytes_ = 0, place_ = 0, chunk_first_ = 0;
  std::int64_t chunk_ = 0;
  // Destroyed in reverse: the ring first (it waits for its copies), then what it reads and writes.
  HostArray host_;
  gpu::DeviceBuffer<std::uint8_t> device_;
  std::unique_ptr<HostOffload> ring_;
  cudaEvent_t free_[2] = {nullptr, nullptr};
  StreamWaitClock clock_;
};

}  // namespace dpgpu::wavefront
