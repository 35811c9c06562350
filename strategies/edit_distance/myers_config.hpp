// myers_config.hpp — gpu.myers's parameters (each field one parameter of the registration in
// myers_params.cpp), the rule they obey, how masks fit in shared memory, and what a solve
// allocates. Host C++.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace dpgpu::myers {

struct MyersConfig {
  int words_per_thread = 1;  // W: 64-bit words per lane, stripe = 32 W words (1, 2 or 4)
  int warps = 4;             // warps (independent stripes) per block
  bool script = false;       // also return an edit script (Hirschberg over the passes)
  std::int64_t leaf_cells = std::int64_t{1} << 18;  // script: subproblems this small on the host
  int thread_words = 16;  // distances alone: jobs whose x fits in this many words, one per thread
};

// Why `c` is not a configuration the kernel has, naming the parameter, or "".
inline std::string why_invalid(const MyersConfig& c) {
  if (c.words_per_thread != 1 && c.words_per_thread != 2 && c.words_per_thread != 4)
    return "'words_per_thread' must be 1, 2 or 4, got " + std::to_string(c.words_per_thread);
  if (c.warps < 1 || c.warps > 32)
    return "'warps' must be in [1, 32], got " + std::to_string(c.warps);
  if (c.thread_words != 0 && c.thread_words != 1 && c.thread_words != 2 && c.thread_words != 4 &&
      c.thread_words != 8 && c.thread_words != 16)
    return "'thread_words' must be 0, 1, 2, 4, 8 or 16, got " + std::to_string(c.thread_words);
  if (c.leaf_cells < 1)
    return "'leaf_cells' must be at least 1, got " + std::to_string(c.leaf_cells);
  return {};
}

// Masks take sigma × W × 32 words per warp in shared memory: fewer warps, then fewer words
// per lane, until they fit in `optin` bytes. Returns the bytes per block.
inline std::size_t fit_masks(int sigma, std::size_t optin, int& warps, int& w) {
  auto smem = [&] {
    return std::size_t(warps) * std::size_t(std::max(sigma, 1)) * std::size_t(w) * 32 * 8;
  };
  while (smem() > optin && warps > 1) warps /= 2;
  while (smem() > optin && w > 1) w /= 2;
  return smem();
}

// Device bytes of a solve over n bits × m rows: codes, carry slots, columns (twice over with
// the script: two jobs per subproblem of a level, together never more than the first level).
inline std::uint64_t device_bytes(std::int64_t n, std::int64_t m, const MyersConfig& c) {
  if (n == 0 || m == 0) return 0;
  const std::int64_t words = (n + 63) / 64;
  const std::int64_t stripes = (words + 32 * c.words_per_thread - 1) / (32 * c.words_per_thread);
  const std::uint64_t slots = std::uint64_t(stripes + 2) * std::uint64_t((m + 31) / 32 + 2) * 8;
  const std::uint64_t columns = std::uint64_t(words + 2) * 16 * (c.script ? 2 : 1);
  return std::uint64_t(n + m) + slots + columns + 4096;
}

}  // namespace dpgpu::myers
