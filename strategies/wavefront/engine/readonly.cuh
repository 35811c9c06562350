// readonly.cuh — how kernels read fixed inputs (strings, weights, distance matrices):
// `plain` global loads, `ldg` through the read-only data cache, or `texture` objects as the
// paper did, so its texture-memory claim can be measured (parameter `readonly`).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda_check.cuh"

namespace dpgpu::wavefront {

enum class ReadPath { Plain, Ldg, Texture };

inline ReadPath read_path_from(const std::string& s) {
  if (s == "plain") return ReadPath::Plain;
  if (s == "ldg") return ReadPath::Ldg;
  if (s == "texture") return ReadPath::Texture;
  throw std::invalid_argument("parameter 'readonly' must be texture, ldg or plain, got '" + s +
                              "'");
}

// A read-only array of 1-, 2- or 4-byte elements, with a texture object when asked for.
template <class T>
struct ReadOnly {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "textures fetch 1-, 2- or 4-byte elements");
  const T* ptr = nullptr;
  cudaTextureObject_t tex = 0;
};

template <ReadPath P, class T>
__device__ __forceinline__ T fetch(const ReadOnly<T>& a, int i) {
  if constexpr (P == ReadPath::Plain) {
    return a.ptr[i];
  } else if constexpr (P == ReadPath::Ldg) {
    return __ldg(a.ptr + i);
  } else {
    using Raw =
        std::conditional_t<sizeof(T) == 1, unsigned char,
                           std::conditional_t<sizeof(T) == 2, unsigned short, unsigned int>>;
    Raw r = tex1Dfetch<Raw>(a.tex, i);
    return *reinterpret_cast<T*>(&r);
  }
}

// Owns the texture object (if any) over a device array of `count` elements.
template <class T>
class ReadOnlyBinding {
 public:
  ReadOnlyBinding(const T* device, std::size_t count, ReadPath path) {
    view_.ptr = device;
    if (path != ReadPath::Texture || count == 0) return;
    using Raw =
        std::conditional_t<sizeof(T) == 1, unsigned char,
                           std::conditional_t<sizeof(T) == 2, unsigned short, unsigned int>>;
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = const_cast<T*>(device);
    res.res.linear.desc = cudaCreateChannelDesc<Raw>();
    res.res.linear.sizeInBytes = count * sizeof(T);
    cudaTextureDesc tex{};
    tex.readMode = cudaReadModeElementType;
    CUDA_CHECK(cudaCreateTextureObject(&view_.tex, &res, &tex, nullptr));
  }
  ~ReadOnlyBinding() {
    if (view_.tex) cudaDestroyTextureObject(view_.tex);
  }
  ReadOnlyBinding(const ReadOnlyBinding&) = delete;
  ReadOnlyBinding& operator=(const ReadOnlyBinding&) = delete;
  const ReadOnly<T>& view() const { return view_; }

 private:
  ReadOnly<T> view_;
};

}  // namespace dpgpu::wavefront
