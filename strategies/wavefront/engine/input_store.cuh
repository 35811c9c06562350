// input_store.cuh — the read-only inputs of a solve (strings, weights and values, distances):
// the engine copies each to the device and reads it through the path `readonly` names
// (texture object, __ldg, or plain loads; readonly.cuh). Adapters add their arrays in the
// "h2d" phase and keep the ReadOnly views for their kernels.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "readonly.cuh"

namespace dpgpu::wavefront {

class InputStore {
 public:
  InputStore(ReadPath path, Context& ctx, cudaStream_t stream)
      : path_(path), ctx_(ctx), stream_(stream) {}

  // `count` elements from `host` (pageable is fine: these are small or copied once), read
  // through the chosen path. `what` names the array in errors.
  template <class T>
  ReadOnly<T> add(const T* host, std::size_t count, const std::string& what) {
    Entry& e = upload(host, count);
    ReadOnly<T> view;
    view.ptr = reinterpret_cast<const T*>(e.buffer.get());
    if (path_ == ReadPath::Texture && count > 0) {
      check_texture_size(count, what);
      using Raw =
          std::conditional_t<sizeof(T) == 1, unsigned char,
                             std::conditional_t<sizeof(T) == 2, unsigned short, unsigned int>>;
      cudaResourceDesc res{};
      res.resType = cudaResourceTypeLinear;
      res.res.linear.devPtr = e.buffer.get();
      res.res.linear.desc = cudaCreateChannelDesc<Raw>();
      res.res.linear.sizeInBytes = count * sizeof(T);
      cudaTextureDesc tex{};
      tex.readMode = cudaReadModeElementType;
      CUDA_CHECK(cudaCreateTextureObject(&e.texture, &res, &tex, nullptr));
      view.tex = e.texture;
    }
    return view;
  }

  // A device copy read with plain loads whatever `readonly` says (small tables a kernel
  // stages in shared memory, e.g. the binomials).
  template <class T>
  const T* add_plain(const T* host, std::size_t count) {
    return reinterpret_cast<const T*>(upload(host, count).buffer.get());
  }

  ReadPath path() const { return path_; }

 private:
  struct Entry {
    gpu::DeviceBuffer<std::uint8_t> buffer;
    cudaTextureObject_t texture = 0;
    ~Entry() {
      if (texture) cudaDestroyTextureObject(texture);
    }
  };
  template <class T>
  Entry& upload(const T* host, std::size_t count) {
    auto e = std::make_unique<Entry>();
    e->buffer = gpu::DeviceBuffer<std::uint8_t>(count * sizeof(T), &ctx_);
    if (count)
      CUDA_CHECK(cudaMemcpyAsync(e->buffer.get(), host, count * sizeof(T), cudaMemcpyHostToDevice,
                                 stream_));
    entries_.push_back(std::move(e));
    return *entries_.back();
  }
  // Texture objects over linear memory address at most maxTexture1DLinear elements.
  static void check_texture_size(std::size_t elements, const std::string& what) {
    int device = 0, limit = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxTexture1DLinearWidth, device));
    if (elements > std::size_t(limit))
      throw InputError("gpu.wavefront: readonly = texture addresses at most " +
                       std::to_string(limit) + " elements per array on this GPU, " + what +
                       " has " + std::to_string(elements) + "; use readonly = ldg or plain");
  }

  ReadPath path_;
  Context& ctx_;
  cudaStream_t stream_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace dpgpu::wavefront
