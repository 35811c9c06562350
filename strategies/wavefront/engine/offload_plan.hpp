// offload_plan.hpp — what decision bits take when a DP keeps them for its certificate, for the
// strategies that write one bit per cell and stream them to the host in chunks of steps
// (gpu.rowwise: item rows; gpu.wavefront's knapsack: anti-diagonals). Host C++ only: the
// registrations' memory estimates and the CUDA drivers share it (host_offload.cuh moves them).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "dpgpu/error.hpp"

namespace dpgpu::wavefront {

// An automatic chunk is about this many bytes of bits.
inline constexpr std::int64_t kOffloadChunkTargetBytes = std::int64_t{4} << 20;

// Steps per offloaded chunk: `requested`, or (0) about kOffloadChunkTargetBytes; at most `steps`.
inline std::int64_t offload_chunk_steps(std::int64_t requested, std::uint64_t step_bytes,
                                        std::int64_t steps) {
  const std::int64_t k =
      requested != 0
          ? requested
          : std::max<std::int64_t>(1, kOffloadChunkTargetBytes / std::int64_t(step_bytes));
  return std::min(k, steps);
}

// The parameters' own rules: `steps_param` is the solver's name for the chunk length
// ("offload_rows", "offload_diagonals").
inline void validate_offload(const std::string& solver, const char* steps_param,
                             std::int64_t chunk_steps, std::int64_t slots) {
  if (chunk_steps < 0)
    throw InputError(solver + ": parameter '" + steps_param + "' must be >= 0, got " +
                     std::to_string(chunk_steps));
  if (slots < 1)
    throw InputError(solver + ": parameter 'offload_slots' must be >= 1, got " +
                     std::to_string(slots));
}

// The decision bits of `steps` steps of `step_bytes` each, plus one taken flag per item for
// the traceback on the device.
struct DecisionBitsPlan {
  bool reconstruct = true;  // false: value only, no bits at all
  bool offload = false;     // true: bits stream to pinned host memory chunk by chunk
  std::int64_t steps = 0;   // rows or diagonals
  std::uint64_t step_bytes = 0;
  std::int64_t chunk = 0;   // steps per chunk (offload)
  std::int64_t slots = 0;   // pinned staging slots of one chunk each (offload)
  std::uint64_t items = 0;  // taken flags (traced on the device, without offload)

  // Offload: two chunks in flight on the device; else every step's bits and the taken flags.
  std::uint64_t device_bytes() const {
    if (!reconstruct) return 0;
    if (offload) return 2 * std::uint64_t(chunk) * step_bytes;
    return std::uint64_t(steps) * step_bytes + items;
  }
  // Offload: the host copy of every step's bits and the pinned staging ring; else the flags.
  std::uint64_t host_bytes() const {
    if (!reconstruct) return 0;
    if (offload)
      return std::uint64_t(steps) * step_bytes +
             std::uint64_t(slots) * std::uint64_t(chunk) * step_bytes;
    return items;
  }
};

}  // namespace dpgpu::wavefront
