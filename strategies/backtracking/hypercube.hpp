// hypercube.hpp — the virtual p-ary hypercube of gpu.ivm's victim selection (paper 004,
// Sect. 3.2, Algorithm 2). Explorer R = (a_{d-1} ... a_0) in base p; at trySelect(i, j) every
// thief R looks at the explorer whose digit i is (a_i + j) mod p. For fixed (i, j) that map is
// a bijection, so within one launch no victim is looked at by two thieves; a `selected` flag
// written in earlier launches keeps later ones from taking it again.
#pragma once
#include <cstdint>
#include <optional>

#include "hd.hpp"

namespace dpgpu::backtracking {

// dims when explorers == arity^dims (arity >= 2), else nullopt.
inline std::optional<int> hypercube_dims(std::uint64_t explorers, std::uint64_t arity) {
  if (arity < 2 || explorers < 1) return std::nullopt;
  int dims = 0;
  std::uint64_t t = 1;
  while (t < explorers) {
    t *= arity;
    ++dims;
  }
  if (t != explorers) return std::nullopt;
  return dims;
}

// R with its base-`arity` digit at weight `stride` (= arity^dim) advanced by `offset` mod arity.
BT_HD std::uint32_t hypercube_neighbor(std::uint32_t r, std::uint32_t stride, std::uint32_t arity,
                                       std::uint32_t offset) {
  const std::uint32_t digit = (r / stride) % arity;
  const std::uint32_t moved = (digit + offset) % arity;
  return r - digit * stride + moved * stride;
}

}  // namespace dpgpu::backtracking
