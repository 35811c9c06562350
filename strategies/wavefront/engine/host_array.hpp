// host_array.hpp — the host array that receives every step's decision data (gigabytes at the
// largest sizes): not zero-filled (every byte is overwritten) and, on Linux, asked for huge
// pages, since first touch of fresh pages dominates otherwise.
#pragma once
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "dpgpu/error.hpp"

namespace dpgpu::wavefront {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using HostArray = std::unique_ptr<std::uint8_t[], FreeDeleter>;

inline HostArray host_array(std::uint64_t bytes, const std::string& what) {
  constexpr std::uint64_t kHuge = std::uint64_t{2} << 20;
  const std::uint64_t rounded = (std::max<std::uint64_t>(bytes, 1) + kHuge - 1) / kHuge * kHuge;
  void* p = std::aligned_alloc(kHuge, rounded);
  if (!p)
    throw OutOfMemory("gpu.wavefront: " + what + " needs " + std::to_string(bytes) +
                      " bytes of host memory; allocation failed");
#ifdef MADV_HUGEPAGE
  madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return HostArray(static_cast<std::uint8_t*>(p));
}

}  // namespace dpgpu::wavefront
