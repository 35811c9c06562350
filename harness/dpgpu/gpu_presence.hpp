// gpu_presence.hpp — whether this process can use a GPU, and if not, why in words a user can
// act on (cudart says "CUDA driver version is insufficient" on a machine with no driver at all).
#pragma once
#include <string>

namespace dpgpu {

// Empty when a CUDA device is usable; otherwise e.g. "no NVIDIA driver on this machine (...)".
// "dpgpu was built without CUDA" in CPU-only builds.
std::string no_usable_gpu_reason();

}  // namespace dpgpu
