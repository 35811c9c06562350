// kawanami_config.hpp — gpu.kawanami's parameters (each field one parameter of the
// registration in kawanami_params.cpp), the rules they obey, the words each thread owns and
// what a solve allocates.
#pragma once
#include <cstdint>
#include <string>

namespace dpgpu::kawanami {

struct KawanamiConfig {
  int threads = 1024;  // threads of the one block; each owns a run of consecutive 32-bit words
};

inline constexpr int kMaxWordsPerThread = 32;  // words a thread keeps in registers

// Why `c` is not a configuration the kernel has, naming the parameter, or "".
inline std::string why_invalid(const KawanamiConfig& c) {
  if (c.threads < 32 || c.threads > 1024 || c.threads % 32 != 0)
    return "'threads' must be a multiple of 32 in [32, 1024], got " + std::to_string(c.threads);
  return {};
}

inline std::int64_t words_of(std::int64_t bits) { return (bits + 31) / 32; }

// Words per thread for `bits` bits: the next power of two of words / threads (1 … 32), or 0
// when the bit vector does not fit one block's registers.
inline int words_per_thread(std::int64_t bits, const KawanamiConfig& c) {
  const std::int64_t need = (words_of(bits) + c.threads - 1) / c.threads;
  int k = 1;
  while (k < need) k *= 2;
  return k <= kMaxWordsPerThread ? k : 0;
}

// The longest string the bit vector can run along.
inline std::int64_t max_bits(const KawanamiConfig& c) {
  return std::int64_t(c.threads) * kMaxWordsPerThread * 32;
}

// Device bytes over `bits` bits and `rows` rows with `sigma` symbols: strings, masks, result.
inline std::uint64_t device_bytes(std::int64_t bits, std::int64_t rows, int sigma) {
  if (bits == 0 || rows == 0) return 0;
  return std::uint64_t(bits + rows) + 4 * std::uint64_t(sigma + 1) * std::uint64_t(words_of(bits)) +
         8;
}

}  // namespace dpgpu::kawanami
