// The certificate check, the work count, the instance maker, and the problem's registration.
#include <gtest/gtest.h>

#include <stdexcept>

#include "dpgpu/registry.hpp"
#include "tsp/tsp.hpp"

namespace {

// An asymmetric 4-city matrix with a nonzero diagonal (never part of a tour).
tsp::Instance four() {
  return tsp::make_instance(4, {
                                   7, 1, 20, 30,  // 0->1 = 1
                                   40, 7, 2, 50,  // 1->2 = 2
                                   60, 70, 7, 3,  // 2->3 = 3
                                   4, 80, 90, 7,  // 3->0 = 4
                               });
}

bool mentions(const dpgpu::Verdict& v, const std::string& word) {
  return v.message.find(word) != std::string::npos;
}

TEST(TspCheck, CountsEveryArcIncludingTheReturn) {
  auto v = tsp::Problem::check(four(), {{0, 1, 2, 3}});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 1 + 2 + 3 + 4);
  // Rotations of one cycle cost the same; the reverse direction of an asymmetric one does not.
  EXPECT_EQ(tsp::Problem::check(four(), {{2, 3, 0, 1}}).objective, 10);
  EXPECT_EQ(tsp::Problem::check(four(), {{0, 3, 2, 1}}).objective, 30 + 90 + 70 + 40);
}

TEST(TspCheck, OneCityIsTourZeroWithCostZero) {
  auto x = tsp::make_instance(1, {123});
  auto v = tsp::Problem::check(x, {{0}});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 0);
  EXPECT_FALSE(tsp::Problem::check(x, {{}}).ok);
  EXPECT_FALSE(tsp::Problem::check(x, {{1}}).ok);
}

TEST(TspCheck, TwoCitiesGoThereAndBack) {
  auto x = tsp::make_instance(2, {0, 5, 9, 0});
  EXPECT_EQ(tsp::Problem::check(x, {{0, 1}}).objective, 14);
  EXPECT_EQ(tsp::Problem::check(x, {{1, 0}}).objective, 14);
}

TEST(TspCheck, RejectsARepeatedCity) {
  auto v = tsp::Problem::check(four(), {{0, 1, 1, 3}});
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(mentions(v, "city 1 is repeated at positions 1 and 2")) << v.message;
}

TEST(TspCheck, RejectsAMissingCity) {
  auto v = tsp::Problem::check(four(), {{0, 1, 3}});
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(mentions(v, "city 2 is missing")) << v.message;
  EXPECT_TRUE(mentions(v, "3 of 4")) << v.message;
  EXPECT_TRUE(mentions(tsp::Problem::check(four(), {{}}), "city 0 is missing"));
}

TEST(TspCheck, RejectsCitiesOutOfRange) {
  auto high = tsp::Problem::check(four(), {{0, 1, 2, 4}});
  EXPECT_FALSE(high.ok);
  EXPECT_TRUE(mentions(high, "city 4 at position 3 is out of range [0, 3]")) << high.message;
  auto low = tsp::Problem::check(four(), {{-1, 0, 1, 2, 3}});
  EXPECT_FALSE(low.ok);
  EXPECT_TRUE(mentions(low, "city -1 at position 0")) << low.message;
}

TEST(TspCheck, RejectsTooLongTours) {
  auto v = tsp::Problem::check(four(), {{0, 1, 2, 3, 0}});
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(mentions(v, "repeated")) << v.message;
}

TEST(TspCheck, RejectsAMalformedInstanceInsteadOfReadingPastIt) {
  tsp::Instance x;
  x.n = 3;
  x.dist = {0, 1, 2};
  auto v = tsp::Problem::check(x, {{0, 1, 2}});
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(mentions(v, "malformed")) << v.message;
}

TEST(TspWork, IsTheNumberOfHeldKarpRelaxations) {
  for (int n = 1; n <= 12; ++n) {
    // Counted the slow way: every subset S of the m = n-1 other cities with |S| >= 2,
    // every last city j in S, every predecessor k in S \ {j}; plus first and closing arcs.
    const int m = n - 1;
    double count = 2.0 * m;
    for (unsigned s = 0; s < (1u << m); ++s) {
      const int size = __builtin_popcount(s);
      if (size >= 2) count += size * (size - 1);
    }
    tsp::Instance x = tsp::make_instance(n, std::vector<std::int64_t>(std::size_t(n) * n, 1));
    EXPECT_EQ(tsp::Problem::work(x), count) << "n = " << n;
  }
  EXPECT_EQ(tsp::Problem::work(tsp::make_instance(1, {0})), 0);
}

TEST(TspWork, DimsGiveTheCityCount) {
  auto d = tsp::Problem::dims(four());
  EXPECT_EQ(std::get<std::int64_t>(d.at("n")), 4);
  EXPECT_EQ(d.size(), 1u);
}

TEST(TspInstance, MakeInstanceChecksShapeAndWeights) {
  EXPECT_THROW(tsp::make_instance(0, {}), std::invalid_argument);
  EXPECT_THROW(tsp::make_instance(2, {0, 1, 2}), std::invalid_argument);
  EXPECT_THROW(tsp::make_instance(2, {0, -1, 2, 0}), std::invalid_argument);  // negative arc
  EXPECT_THROW(tsp::make_instance(2, {0, tsp::kMaxWeight + 1, 2, 0}), std::invalid_argument);
  EXPECT_NO_THROW(tsp::make_instance(2, {-5, tsp::kMaxWeight, 2, 0}));  // diagonal may be anything
  EXPECT_TRUE(tsp::make_instance(3, {9, 1, 2, 1, 8, 3, 2, 3, 7}).symmetric);  // diagonal ignored
  EXPECT_FALSE(tsp::make_instance(3, {0, 1, 2, 1, 0, 3, 2, 4, 0}).symmetric);
  EXPECT_EQ(tsp::make_instance(2, {0, 1, 1, 0}, "pair").name, "pair");
}

TEST(TspInstance, CostUpperBoundIsTheSumOfRowMaxima) {
  EXPECT_EQ(tsp::cost_upper_bound(four()), 30 + 50 + 70 + 90);  // the diagonal 7s do not count
  EXPECT_EQ(tsp::cost_upper_bound(tsp::make_instance(1, {99})), 0);
}

TEST(TspRegistration, ProblemAndGeneratorsAreRegistered) {
  auto* p = dpgpu::Registry::get().problem("tsp");
  ASSERT_NE(p, nullptr);
  EXPECT_NE(p->generator("euclidean"), nullptr);
  EXPECT_NE(p->generator("random_matrix"), nullptr);
  EXPECT_EQ(p->generator("uniform"), nullptr);
  // The erased check sees the certificate.
  auto x = dpgpu::erase_instance<tsp::Problem>({"four", four(), 10});
  dpgpu::AnyOutcome out;
  out.objective = 10;
  out.solution = std::make_shared<const tsp::Solution>(tsp::Solution{{0, 1, 2, 3}});
  auto verdict = p->check(x, out);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->ok);
  EXPECT_EQ(verdict->objective, 10);
  EXPECT_EQ(std::get<std::int64_t>(x.dims.at("n")), 4);
}

}  // namespace
