// TSPLIB95 distance functions. Each follows the C code of the TSPLIB95 document; nint(x)
// there is (int)(x + 0.5), which is what `nint` below does for the non-negative values it sees.
#include "tsplib_distances.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tsp {

namespace {

constexpr double kPi = 3.141592;   // TSPLIB's own value, not M_PI: distances depend on it
constexpr double kRrr = 6378.388;  // TSPLIB's earth radius in km

std::int64_t nint(double v) { return static_cast<std::int64_t>(v + 0.5); }

// DDD.MM (degrees, then minutes as the first two decimals) to radians. The degrees are the
// integer part, truncated (the TSPLIB FAQ's code; the document's "nint" there is a misprint
// that would round 94.55 up to 95 degrees and -0.45 minutes).
double geo_radians(double v) {
  const double deg = std::trunc(v);
  const double min = v - deg;
  return kPi * (deg + 5.0 * min / 3.0) / 180.0;
}

bool too_far(double v) { return !(v <= double(kMaxWeight)); }  // also catches NaN

}  // namespace

std::optional<DistanceType> distance_type_named(std::string_view name) {
  for (auto t : {DistanceType::Euc2d, DistanceType::Ceil2d, DistanceType::Att, DistanceType::Geo,
                 DistanceType::Man2d})
    if (name == name_of(t)) return t;
  return std::nullopt;
}

const char* name_of(DistanceType t) {
  switch (t) {
    case DistanceType::Euc2d: return "EUC_2D";
    case DistanceType::Ceil2d: return "CEIL_2D";
    case DistanceType::Att: return "ATT";
    case DistanceType::Geo: return "GEO";
    case DistanceType::Man2d: return "MAN_2D";
  }
  return "?";
}

std::int64_t tsplib_distance(DistanceType t, Point a, Point b) {
  const double xd = a.x - b.x, yd = a.y - b.y;
  double exact = 0;  // the real distance, checked against kMaxWeight before rounding
  switch (t) {
    case DistanceType::Euc2d: exact = std::sqrt(xd * xd + yd * yd); break;
    case DistanceType::Ceil2d: exact = std::sqrt(xd * xd + yd * yd); break;
    case DistanceType::Man2d: exact = std::fabs(xd) + std::fabs(yd); break;
    case DistanceType::Att: exact = std::sqrt((xd * xd + yd * yd) / 10.0); break;
    case DistanceType::Geo: {
      const double lat_a = geo_radians(a.x), lon_a = geo_radians(a.y);
      const double lat_b = geo_radians(b.x), lon_b = geo_radians(b.y);
      const double q1 = std::cos(lon_a - lon_b);
      const double q2 = std::cos(lat_a - lat_b);
      const double q3 = std::cos(lat_a + lat_b);
      // Clamped: for coinciding points rounding can push the argument just past 1 (NaN).
      const double c = std::clamp(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3), -1.0, 1.0);
      exact = kRrr * std::acos(c) + 1.0;
      break;
    }
  }
  if (too_far(exact)) return kMaxWeight + 1;  // the caller reports it
  switch (t) {
    case DistanceType::Euc2d:
    case DistanceType::Man2d: return nint(exact);
    case DistanceType::Ceil2d: return static_cast<std::int64_t>(std::ceil(exact));
    case DistanceType::Att: {
      const std::int64_t t_ij = nint(exact);  // rounded, then up if rounding went down
      return double(t_ij) < exact ? t_ij + 1 : t_ij;
    }
    case DistanceType::Geo: return static_cast<std::int64_t>(exact);  // (int)(RRR·acos(..) + 1.0)
  }
  return 0;
}

std::vector<std::int64_t> distance_matrix(DistanceType t, const std::vector<Point>& points) {
  const std::size_t n = points.size();
  std::vector<std::int64_t> dist(n * n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const auto d = tsplib_distance(t, points[i], points[j]);
      if (d > kMaxWeight)
        throw std::invalid_argument(
            fmt::format("{} distance from city {} to city {} exceeds {} (or is not a number)",
                        name_of(t), i + 1, j + 1, kMaxWeight));
      dist[i * n + j] = d;
    }
  return dist;
}

}  // namespace tsp
