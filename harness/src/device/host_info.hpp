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

// Host, CPU (model, MHz, frequency governor), memory, load at the time of the call, the
// command line (set_command_line), and the compiler.
nlohmann::json host_facts();
// What explains noise, read now: load averages (1, 5, 15 min), runnable tasks, and the
// other processes that used more than min_cpu_percent of a CPU over a 0.2 s window (pid, name,
// percent), busiest first. host_facts() holds one reading taken at the start; the runner
// records another at the end as context.json's "host_load_end".
nlohmann::json host_load(double min_cpu_percent = 10.0);
// The process's command line, recorded in host_facts() as "command_line" (main calls it).
void set_command_line(int argc, char** argv);
nlohmann::json gpu_facts();  // null without a device
// The UUID of CUDA device `device` as nvidia-smi writes it ("GPU-8c1f…"), empty without one.
std::string cuda_device_uuid(int device);
// Every CUDA device this process sees (after CUDA_VISIBLE_DEVICES): index, name, uuid.
nlohmann::json visible_gpus();
nlohmann::json gpu_clock_reading();  // nvidia-smi clocks/temperature/throttle, or null
std::string now_iso8601();
// `git rev-parse HEAD` of the source tree (with -dirty), else the commit the build was
// configured from ("<sha> (build)"), else "unknown".
std::string git_commit();

}  // namespace dpgpu
