// pipeline_config.hpp — parameters, bounds and memory estimates of the pipeline strategy's
// solvers (gpu.pipeline, gpu.pipeline2x2, gpu.prefix, gpu.inner_parallel). Host C++ only: the
// registration, the CUDA drivers and the host-only tests share it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "knapsack/knapsack.hpp"
#include "sdp/sdp.hpp"

namespace dpgpu::pipeline {

inline constexpr int kBlockLimit = 1024;     // threads of one block (sync: block)
inline constexpr int kMaxPerThread = 8;      // element-stages one thread carries per step (registers)
inline constexpr std::int64_t kMaxK = 4096;  // offsets kept in shared memory

struct PipelineConfig {
  std::int64_t p = 0;          // fold; 0: the largest valid p for the instance
  std::string sync = "grid";   // block | grid | launch
  int block = 512;             // threads per block (grid, launch)
  std::int64_t blocks = 0;     // grid: blocks of the persistent kernel; 0: one per SM
};

inline void validate(const PipelineConfig& c, const char* solver) {
  if (c.p < 0) throw InputError(std::string(solver) + ": parameter 'p' must be >= 0 (0: largest valid), got " + std::to_string(c.p));
  if (c.sync != "block" && c.sync != "grid" && c.sync != "launch")
    throw InputError(std::string(solver) + ": parameter 'sync' must be block, grid or launch, got '" + c.sync + "'");
  if (c.block < 32 || c.block > kBlockLimit || c.block % 32 != 0)
    throw InputError(std::string(solver) + ": parameter 'block' must be a multiple of 32 in [32, 1024], got " +
                     std::to_string(c.block));
  if (c.blocks < 0) throw InputError(std::string(solver) + ": parameter 'blocks' must be >= 0, got " + std::to_string(c.blocks));
}

// The fold to run: p (or the largest valid one when p is 0), refused above `max_p` with the
// bound in the message, and for sync block above what one block holds.
inline std::int64_t resolve_fold(std::int64_t p, std::int64_t max_p, std::int64_t k, const std::string& sync,
                                 const std::string& bound_reason, const char* solver) {
  if (max_p < 1) max_p = 1;
  if (p == 0) p = max_p;
  if (p > max_p)
    throw InputError(std::string(solver) + ": parameter 'p' = " + std::to_string(p) +
                     " exceeds the largest valid fold " + std::to_string(max_p) + " for this instance (" +
                     bound_reason + ")");
  if (sync == "block" && p * k > kBlockLimit)
    throw InputError(std::string(solver) + ": sync block runs p·k = " + std::to_string(p * k) +
                     " threads in one block, at most " + std::to_string(kBlockLimit) + "; p <= " +
                     std::to_string(std::max<std::int64_t>(1, kBlockLimit / k)) + " for k = " + std::to_string(k));
  return p;
}

// --- S-DP -----------------------------------------------------------------------------------

// 32-bit cells when every value fits: min/max with initial values below 2^32, add with a
// modulus of at most 2^31 (so a + b < 2^32).
inline bool sdp_fits_32_bits(const sdp::Instance& x) {
  if (x.op == sdp::Op::add) return x.modulus <= (std::uint64_t{1} << 31);
  for (auto v : x.init)
    if (v > 0xffffffffull) return false;
  return true;
}

inline std::string sdp_bound_reason() { return "a_t >= (k - t)·p for every stage t"; }

inline void check_sdp_instance(const sdp::Instance& x, const char* solver) {
  if (auto why = sdp::why_malformed(x); !why.empty()) throw InputError(std::string(solver) + ": " + why);
  if (x.k() > kMaxK)
    throw InputError(std::string(solver) + ": k = " + std::to_string(x.k()) + " offsets, at most " + std::to_string(kMaxK));
}

inline std::uint64_t sdp_device_bytes(const sdp::Instance& x) {
  return std::uint64_t(x.n) * (sdp_fits_32_bits(x) ? 4 : 8) + std::uint64_t(x.k()) * 8 + 64;
}

// --- knapsack through S-DP (paper section 4.3) -----------------------------------------------
// Row r of the (items+1) × (C+1) table holds the best value with the first r active items
// (weight <= C); ST[r·(C+1) + c]. Two stages: stage 0 reads offset C+1+w_r (take the item),
// stage 1 offset C+1 (leave it). The condition a_t >= (k - t)·p gives p <= C+1 and
// p <= floor((C+1+w)/2) for every active weight w.

inline std::vector<std::int32_t> active_items(const knapsack::Instance& x) {
  std::vector<std::int32_t> a;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) a.push_back(std::int32_t(j));
  return a;
}

inline std::int64_t knapsack_max_fold(const knapsack::Instance& x) {
  std::int64_t p = x.capacity + 1;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) p = std::min(p, (x.capacity + 1 + x.weight[j]) / 2);
  return std::max<std::int64_t>(1, p);
}

inline bool knapsack_fits_32_bits(const knapsack::Instance& x) {
  std::int64_t total = 0;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) total += x.value[j];
  return total <= std::numeric_limits<std::int32_t>::max();
}

inline std::string knapsack_bound_reason() { return "p <= C+1 and p <= floor((C+1+w)/2) for every item weight w <= C"; }

inline std::uint64_t knapsack_device_bytes(const knapsack::Instance& x) {
  const std::uint64_t rows = active_items(x).size() + 1;
  return rows * std::uint64_t(x.capacity + 1) * (knapsack_fits_32_bits(x) ? 4 : 8) + rows * 17 + 64;
}

}  // namespace dpgpu::pipeline
