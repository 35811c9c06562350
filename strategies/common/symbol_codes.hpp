// symbol_codes.hpp — two strings as dense symbol codes, the alphabet the bit-vector kernels
// (gpu.bitparallel's LCS, gpu.myers's edit distance) build their match masks over: the
// symbols of y are 0 .. sigma-1 in order of first occurrence; a symbol of x that y lacks gets
// the code sigma, which matches nothing (only possible when sigma < 256).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace dpgpu::gpu {

struct SymbolCodes {
  std::vector<std::uint8_t> x, y;
  int sigma = 0;
};

inline SymbolCodes symbol_codes(std::string_view x, std::string_view y) {
  std::array<int, 256> code;
  code.fill(-1);
  SymbolCodes s;
  s.y.reserve(y.size());
  for (const char c : y) {
    int& k = code[static_cast<unsigned char>(c)];
    if (k < 0) k = s.sigma++;
    s.y.push_back(std::uint8_t(k));
  }
  s.x.reserve(x.size());
  for (const char c : x) {
    const int k = code[static_cast<unsigned char>(c)];
    s.x.push_back(std::uint8_t(k < 0 ? s.sigma : k));
  }
  return s;
}

}  // namespace dpgpu::gpu
