// device_buffer.cuh — RAII device and pinned-host memory; device bytes reported to the
// Context's accountant so peak device bytes become a counter.
#pragma once
#include <cstddef>
#include <utility>

#include "cuda_check.cuh"
#include "dpgpu/context.hpp"

namespace dpgpu::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::size_t count, Context* ctx = nullptr) : count_(count), ctx_(ctx) {
    if (count_ == 0) return;
    CUDA_CHECK(cudaMalloc(&ptr_, bytes()));
    if (ctx_) ctx_->device_alloc(bytes());
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      swap(o);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void release() {
    if (ptr_) {
      cudaFree(ptr_);
      if (ctx_) ctx_->device_free(bytes());
    }
    ptr_ = nullptr;
    count_ = 0;
  }
  void swap(DeviceBuffer& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    std::swap(ctx_, o.ctx_);
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
  Context* ctx_ = nullptr;
};

// Page-locked host memory, so copies on a stream run asynchronously.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count_) CUDA_CHECK(cudaMallocHost(&ptr_, count_ * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* get() const { return ptr_; }
  T& operator[](std::size_t i) const { return ptr_[i]; }
  std::size_t size() const { return count_; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// True when a CUDA device is usable; GPU tests GTEST_SKIP() otherwise.
inline bool device_present() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

}  // namespace dpgpu::gpu
