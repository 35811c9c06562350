// TSPLIB95's distance functions on points whose distances are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "tsplib_distances.hpp"

namespace {

using tsp::DistanceType;
using tsp::Point;

std::int64_t d(DistanceType t, Point a, Point b) { return tsp::tsplib_distance(t, a, b); }

TEST(TspDistances, Euc2dRoundsToNearestWithHalvesUp) {
  EXPECT_EQ(d(DistanceType::Euc2d, {0, 0}, {3, 4}), 5);
  EXPECT_EQ(d(DistanceType::Euc2d, {0, 0}, {1, 1}), 1);    // 1.414
  EXPECT_EQ(d(DistanceType::Euc2d, {0, 0}, {2, 3}), 4);    // 3.606
  EXPECT_EQ(d(DistanceType::Euc2d, {0, 0}, {0, 2.5}), 3);  // 2.5 rounds up
  EXPECT_EQ(d(DistanceType::Euc2d, {1.5, 2}, {1.5, 2}), 0);
}

TEST(TspDistances, Ceil2dRoundsUp) {
  EXPECT_EQ(d(DistanceType::Ceil2d, {0, 0}, {1, 1}), 2);
  EXPECT_EQ(d(DistanceType::Ceil2d, {0, 0}, {3, 4}), 5);  // exact stays
  EXPECT_EQ(d(DistanceType::Ceil2d, {0, 0}, {0, 0.1}), 1);
}

TEST(TspDistances, AttIsPseudoEuclideanRoundedUp) {
  EXPECT_EQ(d(DistanceType::Att, {0, 0}, {10, 0}), 4);    // sqrt(10) = 3.16: nint 3 < 3.16, so 4
  EXPECT_EQ(d(DistanceType::Att, {0, 0}, {0, 30}), 10);   // sqrt(90) = 9.49: nint 9, so 10
  EXPECT_EQ(d(DistanceType::Att, {0, 0}, {10, 30}), 10);  // sqrt(100) = 10 exactly: stays
  EXPECT_EQ(d(DistanceType::Att, {0, 0}, {0, 25}), 8);    // sqrt(62.5) = 7.91: nint 8 >= 7.91
}

TEST(TspDistances, Man2dRoundsTheSumOfAbsoluteDifferences) {
  EXPECT_EQ(d(DistanceType::Man2d, {0, 0}, {3, -4}), 7);
  EXPECT_EQ(d(DistanceType::Man2d, {0.2, 0}, {0, 0.3}), 1);  // 0.5 rounds up
  EXPECT_EQ(d(DistanceType::Man2d, {0.2, 0}, {0, 0.2}), 0);
}

TEST(TspDistances, GeoUsesDegreesMinutesAndTsplibConstants) {
  // One degree along the equator or a meridian: 6378.388 · 3.141592/180 = 111.32, + 1.0, truncated.
  EXPECT_EQ(d(DistanceType::Geo, {0, 0}, {0, 1}), 112);
  EXPECT_EQ(d(DistanceType::Geo, {10, 20}, {11, 20}), 112);
  // 0.30 is 30 minutes = half a degree: 55.66 + 1.
  EXPECT_EQ(d(DistanceType::Geo, {0, 0}, {0, 0.30}), 56);
  // 0.55 is 0 degrees 55 minutes (truncated degrees): 102.05 + 1. Rounding the degrees
  // (the document's misprint) would give 1 degree - 45 minutes = 0.25 degrees: 28.
  EXPECT_EQ(d(DistanceType::Geo, {0, 0}, {0, 0.55}), 103);
  // Negative coordinates: degrees and minutes both negative, by symmetry the same distance.
  EXPECT_EQ(d(DistanceType::Geo, {0, 0}, {0, -0.55}), 103);
  // Coinciding points: acos(1) = 0, so the formula gives 1.
  EXPECT_EQ(d(DistanceType::Geo, {16.47, 96.10}, {16.47, 96.10}), 1);
}

TEST(TspDistances, GeoAgreesWithTheSphericalLawOfCosines) {
  // burma14 cities 1 and 2, ulysses16 cities 1 and 2: TSPLIB's published distances.
  EXPECT_EQ(d(DistanceType::Geo, {16.47, 96.10}, {16.47, 94.44}), 153);
  EXPECT_EQ(d(DistanceType::Geo, {38.24, 20.42}, {39.57, 26.15}), 509);
  auto radians = [](double v) {
    const double deg = std::trunc(v);
    return 3.141592 * (deg + (v - deg) * 100.0 / 60.0) / 180.0;
  };
  const Point pts[] = {
      {16.47, 96.10}, {-33.52, 151.12}, {51.30, -0.07}, {64.08, -21.56}, {-0.13, 36.49}};
  for (auto a : pts)
    for (auto b : pts) {
      if (a.x == b.x && a.y == b.y) continue;
      const double p1 = radians(a.x), p2 = radians(b.x), dl = radians(a.y) - radians(b.y);
      const double c = std::sin(p1) * std::sin(p2) + std::cos(p1) * std::cos(p2) * std::cos(dl);
      EXPECT_EQ(d(DistanceType::Geo, a, b), std::int64_t(6378.388 * std::acos(c) + 1.0));
    }
}

TEST(TspDistances, MatrixHasAZeroDiagonalAndRefusesHugeDistances) {
  auto m = tsp::distance_matrix(DistanceType::Geo, {{0, 0}, {0, 1}});
  EXPECT_EQ(m, (std::vector<std::int64_t>{0, 112, 112, 0}));
  EXPECT_THROW(tsp::distance_matrix(DistanceType::Euc2d, {{0, 0}, {1e13, 0}}),
               std::invalid_argument);
}

TEST(TspDistances, NamesRoundTrip) {
  for (auto t : {DistanceType::Euc2d, DistanceType::Ceil2d, DistanceType::Att, DistanceType::Geo,
                 DistanceType::Man2d})
    EXPECT_EQ(tsp::distance_type_named(tsp::name_of(t)), t);
  EXPECT_FALSE(tsp::distance_type_named("EXPLICIT").has_value());
  EXPECT_FALSE(tsp::distance_type_named("EUC_3D").has_value());
}

}  // namespace
