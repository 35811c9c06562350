// bitlcs_config.hpp — gpu.bitparallel's parameters (each field one parameter of the
// registration in bitlcs_params.cpp), the rule they obey and what a solve allocates (host only).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace dpgpu::bitlcs {

struct BitLcsConfig {
  int word_bits = 64;        // lane word: 32 or 64 bits
  int words_per_thread = 1;  // W: lane words per lane, stripe = 32 W words (1, 2 or 4)
  int warps = 2;             // warps (independent stripes) per block
  bool reconstruct = false;  // also return one LCS string (Hirschberg over the passes)
  std::int64_t leaf_rows =
      256;                // reconstruct: subproblems of at most this many rows are traced back
  int gpus = 1;           // logical GPUs one pass is split over (i on device i % device count)
  bool windowed = false;  // gpus == 1 too: the pass as skewed row launches (the multi-GPU schedule)
  std::int64_t exchange_rows =
      0;                    // gpus > 1: rows per launch and carry exchange (0: about m / (64 gpus))
  int spin_ns = 0;          // > 0: a warp waiting for a carry word sleeps this long between polls
  bool carry_ring = false;  // one GPU: carry words in per-stripe rings when all stripes fit
};

// Why `c` is not a configuration the kernel has, naming the parameter, or "": the
// registration's rule (so `dpgpu check` refuses it) and the driver's guard for direct callers.
inline std::string why_invalid(const BitLcsConfig& c) {
  if (c.word_bits != 32 && c.word_bits != 64)
    return "'word_bits' must be 32 or 64, got " + std::to_string(c.word_bits);
  if (c.words_per_thread != 1 && c.words_per_thread != 2 && c.words_per_thread != 4)
    return "'words_per_thread' must be 1, 2 or 4, got " + std::to_string(c.words_per_thread);
  if (c.warps < 1 || c.warps > 32)
    return "'warps' must be in [1, 32], got " + std::to_string(c.warps);
  if (c.leaf_rows < 1) return "'leaf_rows' must be at least 1, got " + std::to_string(c.leaf_rows);
  if (c.gpus < 1 || c.gpus > 64) return "'gpus' must be in [1, 64], got " + std::to_string(c.gpus);
  if (c.exchange_rows < 0)
    return "'exchange_rows' must be at least 0, got " + std::to_string(c.exchange_rows);
  if (c.spin_ns < 0 || c.spin_ns > 100000)
    return "'spin_ns' must be in [0, 100000], got " + std::to_string(c.spin_ns);
  return {};
}

// Masks take sigma × W × 32 lane words per warp in shared memory: fewer warps, then fewer
// words per lane, until they fit in `optin` bytes. Returns the bytes per block.
inline std::size_t fit_masks(int sigma, std::size_t optin, int bits, int& warps, int& w) {
  auto smem = [&] {
    return std::size_t(warps) * std::size_t(std::max(sigma, 1)) * std::size_t(w) * 32 *
           std::size_t(bits / 8);
  };
  while (smem() > optin && warps > 1) warps /= 2;
  while (smem() > optin && w > 1) w /= 2;
  return smem();
}

// Device bytes of the passes of a solve over n bits × m rows (n >= m: x is the longer
// string): strings, carry slots of the wavefront, outputs (stored rows of the leaves).
inline std::uint64_t device_bytes(std::int64_t n, std::int64_t m, const BitLcsConfig& c) {
  if (n == 0 || m == 0) return 0;
  const std::int64_t words = (n + 63) / 64;
  const std::int64_t stripe_words =
      32 * std::int64_t(c.words_per_thread) * std::max(1, c.word_bits) / 64;
  const std::int64_t stripes = (words + stripe_words - 1) / stripe_words;
  // Carry slots: one word per 32 rows per stripe boundary; the first level of Hirschberg's
  // passes splits the rows in two jobs, each with its own +1 rounding.
  const std::uint64_t slots = std::uint64_t(stripes) * std::uint64_t((m + 31) / 32 + 2) * 8;
  std::uint64_t out = std::uint64_t(2 * words + 2) * 8;
  if (c.reconstruct) {
    // Leaves: at most leaf_rows rows each over disjoint column ranges, plus one word of
    // rounding per leaf row; the job table for up to m / (leaf_rows/2) + 1 leaves.
    const std::uint64_t leaf =
        std::uint64_t(std::min(m, c.leaf_rows)) * std::uint64_t(words) + std::uint64_t(m);
    out = std::max(out, leaf * 8);
    out += std::uint64_t(2 * m / std::max<std::int64_t>(1, c.leaf_rows / 2) + 4) * 96;
  }
  return std::uint64_t(n + m) + slots + out + 4096;
}

// Host bytes beyond the strings: codes, and the output copied back.
inline std::uint64_t host_bytes(std::int64_t n, std::int64_t m, const BitLcsConfig& c) {
  const std::uint64_t d = device_bytes(n, m, c);
  return std::uint64_t(n + m) + (d > std::uint64_t(n + m) ? d - std::uint64_t(n + m) : 0);
}

}  // namespace dpgpu::bitlcs
