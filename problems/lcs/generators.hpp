// generators.hpp — the instance generators as plain functions (the registered `random` and
// `planted` generators call these; tests and other tools may call them directly).
#pragma once
#include <cstdint>

#include "lcs/lcs.hpp"

namespace lcs {

// a: n symbols, b: m symbols, each drawn uniformly and independently from symbols(alphabet),
// a first, from one std::mt19937_64(seed).
Instance random_pair(std::int64_t n, std::int64_t m, int alphabet, std::uint64_t seed);

// A pair whose LCS length is known by construction (see planted_pair.cpp and README.md).
struct Planted {
  Instance instance;
  std::int64_t lcs_length = 0;
};
// alphabet >= 3; lcs_fraction in [0, 1]; LCS = floor(lcs_fraction * min(n, m)).
Planted planted_pair(std::int64_t n, std::int64_t m, int alphabet, double lcs_fraction,
                     std::uint64_t seed);

}  // namespace lcs
