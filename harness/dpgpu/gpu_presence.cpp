#include "dpgpu/gpu_presence.hpp"

#include <cstdlib>

#include <fmt/format.h>

#if DPGPU_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace dpgpu {

#if DPGPU_WITH_CUDA
static std::string cuda_version(int v) { return fmt::format("{}.{}", v / 1000, v % 1000 / 10); }
#endif

std::string no_usable_gpu_reason() {
#if DPGPU_WITH_CUDA
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaSuccess && n > 0) return "";
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);  // 0 when no driver is installed
  cudaRuntimeGetVersion(&runtime);
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (e == cudaErrorInsufficientDriver && driver == 0)
    return "no NVIDIA driver on this machine (libcuda not found): run on a host with an NVIDIA GPU "
           "and its "
           "driver, or choose cpu.* solvers";
  if (e == cudaErrorInsufficientDriver)
    return fmt::format(
        "the NVIDIA driver supports CUDA {}, this build needs {}: update the driver or rebuild "
        "with an older CUDA toolkit",
        cuda_version(driver), cuda_version(runtime));
  if (e == cudaSuccess || e == cudaErrorNoDevice)
    return visible
               ? fmt::format(
                     "the driver sees no CUDA device with CUDA_VISIBLE_DEVICES='{}': unset it or "
                     "name a device that nvidia-smi lists",
                     visible)
               : std::string("the driver sees no CUDA device: check that nvidia-smi lists one");
  return fmt::format("{} ({}): check nvidia-smi{}", cudaGetErrorString(e), cudaGetErrorName(e),
                     visible ? fmt::format(" and CUDA_VISIBLE_DEVICES='{}'", visible) : "");
#else
  return "dpgpu was built without CUDA";
#endif
}

}  // namespace dpgpu
