// test_seed.hpp — the seed of a randomised test run: $DPGPU_TEST_SEED when set (to replay a
// failure), else a fresh one; tests print it with every failure.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>

namespace dpgpu {

inline std::uint64_t base_seed() {
  static const std::uint64_t seed = [] {
    if (const char* e = std::getenv("DPGPU_TEST_SEED"))
      return std::uint64_t(std::strtoull(e, nullptr, 0));
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd();
  }();
  return seed;
}

}  // namespace dpgpu
