// pipeline_config.hpp — parameters, bounds and memory estimates of the pipeline strategy's
// solvers (gpu.pipeline, gpu.pipeline2x2, gpu.prefix, gpu.inner_parallel). Host C++ only: the
// registration, the CUDA drivers and the host-only tests share it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "knapsack/knapsack.hpp"
#include "sdp/sdp.hpp"

namespace dpgpu::pipeline {

inline constexpr int kBlockLimit = 1024;  // threads of one block (sync: block)
inline constexpr int kMaxPerThread = 8;   // element-stages one thread carries per step (registers)
inline constexpr std::int64_t kMaxK = 4096;  // offsets kept in shared memory

struct PipelineConfig {
  std::int64_t p = 0;         // fold; 0: the largest valid p for the instance
  std::string sync = "grid";  // block | grid | launch
  int block = 512;            // threads per block (grid, launch)
  std::int64_t blocks = 0;    // grid: blocks of the persistent kernel; 0: one per SM
};

inline void validate(const PipelineConfig& c, const char* solver) {
  if (c.p < 0)
    throw InputError(std::string(solver) + ": parameter 'p' must be >= 0 (0: largest valid), got " +
                     std::to_string(c.p));
  if (c.sync != "block" && c.sync != "grid" && c.sync != "launch")
    throw InputError(std::string(solver) +
                     ": parameter 'sync' must be block, grid or launch, got '" + c.sync + "'");
  if (c.block < 32 || c.block > kBlockLimit || c.block % 32 != 0)
    throw InputError(std::string(solver) +
                     ": parameter 'block' must be a multiple of 32 in [32, 1024], got " +
                     std::to_string(c.block));
  if (c.blocks < 0)
    throw InputError(std::string(solver) + ": parameter 'blocks' must be >= 0, got " +
                     std::to_string(c.blocks));
}

// The largest fold one block holds (sync block: p·k threads in one block).
inline std::int64_t block_fold_cap(std::int64_t k) {
  return std::max<std::int64_t>(1, kBlockLimit / k);
}

// The largest fold sync grid can run with `resident` co-resident blocks of `block` threads,
// each thread carrying up to kMaxPerThread element-stages: p·k <= resident·block·kMaxPerThread.
// 0 when not even p = 1 fits.
inline std::int64_t grid_fold_cap(std::int64_t resident, int block, std::int64_t k) {
  return resident * block * kMaxPerThread / k;
}

// Why fold `p` (0: the largest valid) cannot run on an instance whose correctness bound is
// `max_p`, or nullopt: above the bound, or (sync block) above what one block holds.
inline std::optional<std::string> fold_refusal(std::int64_t p, std::int64_t max_p, std::int64_t k,
                                               const std::string& sync,
                                               const std::string& bound_reason) {
  if (p > std::max<std::int64_t>(1, max_p))
    return "parameter 'p' = " + std::to_string(p) + " exceeds the largest valid fold " +
           std::to_string(std::max<std::int64_t>(1, max_p)) + " for this instance (" +
           bound_reason + ")";
  if (sync == "block" && p * k > kBlockLimit)
    return "parameter 'p': sync block runs p·k = " + std::to_string(p * k) +
           " threads in one block, at most " + std::to_string(kBlockLimit) +
           "; p <= " + std::to_string(block_fold_cap(k)) + " for k = " + std::to_string(k);
  return std::nullopt;
}

// The fold to run: p, or when p is 0 the largest that the bound `max_p`, one block (sync
// block) and `device_cap` (sync grid: grid_fold_cap on this GPU) allow. InputError naming the
// bound otherwise.
inline std::int64_t resolve_fold(
    std::int64_t p, std::int64_t max_p, std::int64_t k, const std::string& sync,
    const std::string& bound_reason, const char* solver,
    std::int64_t device_cap = std::numeric_limits<std::int64_t>::max()) {
  if (p == 0) {
    p = std::max<std::int64_t>(1, max_p);
    if (sync == "block") p = std::min(p, block_fold_cap(k));
    if (sync == "grid") p = std::max<std::int64_t>(1, std::min(p, device_cap));
  }
  if (auto why = fold_refusal(p, max_p, k, sync, bound_reason))
    throw InputError(std::string(solver) + ": " + *why);
  return p;
}

// The persistent kernel's layout for sync grid: `blocks` blocks of cfg.block threads (auto:
// one per SM, fewer when p·k needs fewer), each thread carrying up to kMaxPerThread work
// items (`per`); more blocks when that is not enough.
struct GridLayout {
  std::int64_t blocks = 1, per = 1;
};
inline GridLayout grid_layout(std::int64_t pk, const PipelineConfig& cfg, int sms) {
  const std::int64_t needed = (pk + cfg.block - 1) / cfg.block;
  std::int64_t blocks = cfg.blocks > 0 ? cfg.blocks : std::min<std::int64_t>(sms, needed);
  blocks = std::max<std::int64_t>(1, std::min(blocks, needed));
  std::int64_t per = (pk + blocks * cfg.block - 1) / (blocks * cfg.block);
  if (per > kMaxPerThread) {
    blocks = (pk + std::int64_t(cfg.block) * kMaxPerThread - 1) /
             (std::int64_t(cfg.block) * kMaxPerThread);
    per = (pk + blocks * cfg.block - 1) / (blocks * cfg.block);
  }
  return {blocks, per};
}

// Why sync grid cannot run this layout: its blocks must all be co-resident (a grid barrier
// waits for every block), and the GPU holds `resident` of them.
inline std::optional<std::string> residency_refusal(const GridLayout& g, std::int64_t pk,
                                                    const PipelineConfig& cfg,
                                                    std::int64_t resident) {
  if (g.blocks <= resident) return std::nullopt;
  return "parameter 'p': sync grid needs " + std::to_string(g.blocks) + " blocks of " +
         std::to_string(cfg.block) + " threads co-resident for p·k = " + std::to_string(pk) +
         ", the GPU holds " + std::to_string(resident) +
         " (p·k <= " + std::to_string(resident * cfg.block * kMaxPerThread) +
         "); lower 'p' (0: the largest that fits), "
         "'blocks' or 'block'";
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
  if (auto why = sdp::why_malformed(x); !why.empty())
    throw InputError(std::string(solver) + ": " + why);
  if (x.k() > kMaxK)
    throw InputError(std::string(solver) + ": k = " + std::to_string(x.k()) + " offsets, at most " +
                     std::to_string(kMaxK));
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

// Weights and capacity are 32-bit on the device.
inline constexpr std::int64_t kMaxDeviceCapacity = (std::int64_t(1) << 31) - 2;

inline std::string knapsack_bound_reason() {
  return "p <= C+1 and p <= floor((C+1+w)/2) for every item weight w <= C";
}

inline std::uint64_t knapsack_device_bytes(const knapsack::Instance& x) {
  const std::uint64_t rows = active_items(x).size() + 1;
  return rows * std::uint64_t(x.capacity + 1) * (knapsack_fits_32_bits(x) ? 4 : 8) + rows * 17 + 64;
}

}  // namespace dpgpu::pipeline
