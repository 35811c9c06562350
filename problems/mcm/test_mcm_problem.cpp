// The matrix-chain problem: the reader's errors, the generators, the bounds, the
// parenthesization writer and the independent cost check.
#include <gtest/gtest.h>

#include <limits>

#include "dpgpu/error.hpp"
#include "mcm/generators.hpp"
#include "mcm/mcm.hpp"

namespace mcm {
namespace {

Instance paper_example() { return Instance{{2, 9, 3, 1, 4, 11, 5}}; }  // the paper's Figure 1

TEST(McmCheck, PaperExampleCostsWhatThePaperSays) {
  // (A1(A2A3))((A4A5)A6) = 154 (Figure 1); with the outer pair of our format.
  const Cost c = cost_of(paper_example(), "((A1(A2A3))((A4A5)A6))");
  ASSERT_TRUE(c.ok) << c.why;
  EXPECT_EQ(c.cost, 154);
  EXPECT_EQ(cost_of(paper_example(), "(((((A1A2)A3)A4)A5)A6)").cost,
            2 * 9 * 3 + 2 * 3 * 1 + 2 * 1 * 4 + 2 * 4 * 11 + 2 * 11 * 5);
  EXPECT_EQ(cost_of(Instance{{3, 4}}, "A1").cost, 0);
}

TEST(McmCheck, MalformedParenthesizationsAreInvalid) {
  const Instance x = paper_example();
  for (const char* bad : {"", "A1", "((A1A2)A3)", "((A1(A3A2))((A4A5)A6))", "((A1(A2A3))((A4A5)A6)",
                          "((A1A2A3)((A4A5)A6))", "((A1(A2A3))((A4A5)A6)))",
                          "((A1(A2A3))((A4A5)A7))", "((A1(A2 A3))((A4A5)A6))", "(A1)"}) {
    const Cost c = cost_of(x, bad);
    EXPECT_FALSE(c.ok) << "'" << bad << "' accepted";
    EXPECT_FALSE(c.why.empty());
  }
  EXPECT_FALSE(Problem::check(x, Solution{"((A1A2)A3)"}).ok);
  EXPECT_TRUE(Problem::check(x, Solution{"((A1(A2A3))((A4A5)A6))"}).ok);
}

TEST(McmCheck, CostAboveInt64IsRefused) {
  Instance x{{kMaxDim, kMaxDim, kMaxDim, kMaxDim, kMaxDim}};
  // Each product is (2^31 - 1)^3 ≈ 2^93: the check must refuse, not wrap.
  EXPECT_FALSE(cost_of(x, "((A1A2)(A3A4))").ok);
}

TEST(McmParenthesize, WritesTheTreeOfTheSplits) {
  EXPECT_EQ(parenthesize(1,
                         [](std::int64_t, std::int64_t) -> std::int64_t {
                           throw std::logic_error("no split for n = 1");
                         }),
            "A1");
  // Left-deep: split at b - 1.
  EXPECT_EQ(parenthesize(4, [](std::int64_t, std::int64_t b) { return b - 1; }), "(((A1A2)A3)A4)");
  EXPECT_EQ(parenthesize(4, [](std::int64_t a, std::int64_t) { return a + 1; }), "(A1(A2(A3A4)))");
  EXPECT_EQ(parenthesize_preorder(4, {2, 1, 3}), "((A1A2)(A3A4))");
  // A deep chain (no recursion limit).
  const std::string deep = parenthesize(200000, [](std::int64_t, std::int64_t b) { return b - 1; });
  Instance eq;
  eq.p.assign(200001, 2);
  const Cost c = cost_of(eq, deep);
  ASSERT_TRUE(c.ok) << c.why;
  EXPECT_EQ(c.cost, 199999 * 8);
}

TEST(McmBounds, CostBoundHoldsAndNamesTheLimit) {
  // Paper example: widest interval with minimum 1 is points 0..6 with p3 = 1: (6-0-1)·1·11² = 605.
  EXPECT_EQ(std::uint64_t(cost_bound(paper_example())), 605u);
  EXPECT_GE(std::uint64_t(cost_bound(paper_example())), 154u);
  EXPECT_EQ(std::uint64_t(split_bound(paper_example())), 2u * 605u + 11u * 11u * 11u);
  EXPECT_EQ(std::uint64_t(cost_bound(Instance{{5, 7}})), 0u);
  EXPECT_TRUE(costs_fit_32_bits(random_instance(16384, 1, 100, 1)));
  EXPECT_FALSE(costs_fit_32_bits(random_instance(16384, 1000, 1000, 1)));
  Instance big{{kMaxDim, kMaxDim, kMaxDim}};
  try {
    require_split_bound(big, std::numeric_limits<std::int64_t>::max(), "solver.x", "2^63 - 1");
    FAIL() << "no refusal";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2^63 - 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("solver.x"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(require_split_bound(paper_example(), 2541, "s", "2541"));
  EXPECT_THROW(require_split_bound(paper_example(), 2540, "s", "2540"), dpgpu::InputError);
}

TEST(McmGenerators, RandomIsDeterministicAndInRange) {
  const Instance a = random_instance(1000, 3, 17, 9), b = random_instance(1000, 3, 17, 9);
  EXPECT_EQ(a.p, b.p);
  ASSERT_EQ(a.n(), 1000);
  for (auto v : a.p) {
    EXPECT_GE(v, 3);
    EXPECT_LE(v, 17);
  }
  EXPECT_THROW(random_instance(0, 1, 2, 1), dpgpu::InputError);
  EXPECT_THROW(random_instance(5, 3, 2, 1), dpgpu::InputError);
  EXPECT_EQ(Problem::work(Instance{{4, 5}}), 0.0);
  EXPECT_EQ(Problem::work(random_instance(10, 1, 5, 1)), 165.0);
}

TEST(McmGenerators, EqualKnowsItsOptimumOnlyWhereInt64HoldsIt) {
  const auto& gens = Problem::generators();
  const auto* equal = &gens[1];
  ASSERT_EQ(equal->name, "equal");
  auto make = [&](std::int64_t n, std::int64_t d) {
    return equal->make(equal->schema.resolve({{"n", n}, {"d", d}}), 1);
  };
  EXPECT_EQ(make(10, 7).known_optimum, dpgpu::Objective(9 * 343));
  // (n - 1)·d³ = 99·2^60 does not fit int64: no optimum (and no overflow computing it).
  const auto big = make(100, std::int64_t{1} << 20);
  EXPECT_FALSE(big.known_optimum.has_value());
  EXPECT_NE(int64_excess(big.instance), "");
  EXPECT_EQ(int64_excess(make(10, 7).instance), "");
}

TEST(McmFile, ReadsDimensionsWithCommentsAndNamesBadLines) {
  const Instance x =
      parse_dimensions("# the paper's example\n2 9\n3   1\t4 # tail\n\n11\n5\n", "ex.txt");
  EXPECT_EQ(x.p, paper_example().p);
  try {
    parse_dimensions("2 9\n3 x 4\n", "bad.txt");
    FAIL();
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.txt:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_dimensions("2 0 3\n", "zero.txt"), dpgpu::InputError);
  EXPECT_THROW(parse_dimensions("# only\n7\n", "one.txt"), dpgpu::InputError);
  EXPECT_THROW(parse_dimensions("3 -4\n", "neg.txt"), dpgpu::InputError);
}

}  // namespace
}  // namespace mcm
