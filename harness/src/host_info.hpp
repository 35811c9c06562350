// host_info.hpp — the facts context.json records: host, GPU, clocks, driver, CUDA,
// compiler, git commit, times.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace dpgpu {

// Number of CUDA devices usable by this process (0 without CUDA or without a device).
int cuda_device_count();
// Why GPU cases cannot run here, or empty when they can.
std::string gpu_unavailable_reason();

nlohmann::json host_facts();
nlohmann::json gpu_facts();         // null without a device
nlohmann::json gpu_clock_reading();  // nvidia-smi clocks/temperature/throttle, or null
std::string now_iso8601();
std::string git_commit();

}  // namespace dpgpu
