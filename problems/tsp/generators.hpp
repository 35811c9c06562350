// generators.hpp — the instance generators as plain functions (the registered `euclidean`
// and `random_matrix` generators call these; tests and other tools may call them directly).
// Both draw from one std::mt19937_64(seed) through draw_below(), so a seed gives the same
// instance on every machine.
#pragma once
#include <cstdint>

#include "tsp/tsp.hpp"

namespace tsp {

// n points with integer coordinates drawn uniformly from [0, side) × [0, side) (x then y,
// point after point); arcs are TSPLIB EUC_2D distances (nearest integer). Symmetric.
// Points may coincide (zero arcs), more often the smaller `side` is.
// 1 <= n <= kMaxCities, 1 <= side <= kMaxSide.
inline constexpr std::int64_t kMaxSide = 1'000'000'000;
Instance euclidean(int n, std::int64_t side, std::uint64_t seed);

// Every arc i→j (i != j, row after row) drawn uniformly from [min, max]; diagonal 0.
// Asymmetric in general. 0 <= min <= max <= kMaxWeight.
Instance random_matrix(int n, std::int64_t min, std::int64_t max, std::uint64_t seed);

}  // namespace tsp
