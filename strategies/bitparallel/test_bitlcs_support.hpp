// test_bitlcs_support.hpp — inputs shared by the host and GPU tests of gpu.bitparallel.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace dpgpu::bitlcs::test {

// Named symbol sets: 2, 4, 20 and 256 symbols (all bytes, 0x00 and 0xFF included).
inline std::string alphabet(int k) {
  if (k == 4) return "ACGT";
  std::string s;
  for (int c = 0; c < k; ++c) s.push_back(char(k == 256 ? c : 'a' + c));
  return s;
}

inline std::string random_string(std::int64_t n, const std::string& symbols, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, symbols.size() - 1);
  std::string s(std::size_t(n), '\0');
  for (auto& c : s) c = symbols[pick(rng)];
  return s;
}

// b = a with about `percent` % of its symbols substituted, deleted or inserted: long common
// runs, so carries travel far and the traceback takes long diagonals.
inline std::string mutate(const std::string& a, const std::string& symbols, int percent,
                          std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pct(0, 99), op(0, 2);
  std::uniform_int_distribution<std::size_t> pick(0, symbols.size() - 1);
  std::string b;
  for (char c : a) {
    if (pct(rng) >= percent) {
      b.push_back(c);
      continue;
    }
    const int o = op(rng);
    if (o == 0) b.push_back(symbols[pick(rng)]);                  // substitute
    if (o == 2) b.push_back(c), b.push_back(symbols[pick(rng)]);  // insert
  }
  return b;
}

}  // namespace dpgpu::bitlcs::test
