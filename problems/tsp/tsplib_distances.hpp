// tsplib_distances.hpp — TSPLIB95's distance functions for coordinate instances, with its
// own rounding rules (Reinelt, "TSPLIB 95", section 2; GEO as in the TSPLIB FAQ).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tsp/tsp.hpp"

namespace tsp {

enum class DistanceType { Euc2d, Ceil2d, Att, Geo, Man2d };

// "EUC_2D" → Euc2d, ...; nullopt for anything else (EXPLICIT is not a distance function).
std::optional<DistanceType> distance_type_named(std::string_view name);
const char* name_of(DistanceType t);

// The distance between two points: a = city i, b = city j (GEO: x = latitude, y = longitude,
// both in DDD.MM degrees-and-minutes form).
std::int64_t tsplib_distance(DistanceType t, Point a, Point b);

// The full matrix, diagonal 0 (a tour never uses it; GEO's formula would give 1 there).
// Throws std::invalid_argument naming the pair when an arc exceeds kMaxWeight.
std::vector<std::int64_t> distance_matrix(DistanceType t, const std::vector<Point>& points);

}  // namespace tsp
