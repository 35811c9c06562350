// reference.hpp — the tiny reference solver tests hold every other solver to: every
// ordering of cities 1..n-1 after city 0, each tour's cost summed from the matrix.
// Deliberately plain, so it is easy to trust; n <= 11 ((n-1)! tours).
#pragma once
#include <cstdint>
#include <vector>

#include "tsp/tsp.hpp"

namespace tsp {

struct ReferenceTour {
  std::int64_t cost = 0;
  std::vector<std::int32_t> tour;  // the first optimal tour in lexicographic order
};

ReferenceTour brute_force(const Instance& x);

}  // namespace tsp
