// The certificate check and the problem's registration.
#include <gtest/gtest.h>

#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"

namespace {

const lcs::Instance textbook{"ABCBDAB", "BDCABA"};  // CLRS: LCS length 4

TEST(LcsCheck, AcceptsCommonSubsequenceAndCountsIt) {
  auto v = lcs::Problem::check(textbook, {"BCBA"});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 4);
}

TEST(LcsCheck, EmptyCertificateIsValidWithZero) {
  auto v = lcs::Problem::check(textbook, {""});
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.objective, 0);
  EXPECT_TRUE(lcs::Problem::check({"", ""}, {""}).ok);
}

TEST(LcsCheck, RejectsWhatIsNotASubsequenceOfA) {
  auto v = lcs::Problem::check(textbook, {"AAA"});  // a has only two 'A'
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("not a subsequence of a"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("#3"), std::string::npos) << v.message;
}

TEST(LcsCheck, RejectsWhatIsNotASubsequenceOfB) {
  auto v = lcs::Problem::check(textbook, {"ABCB"});  // in a; b has no 'C' after "AB"
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("not a subsequence of b"), std::string::npos) << v.message;
}

TEST(LcsCheck, OrderMattersNotJustCounts) {
  EXPECT_FALSE(lcs::Problem::check({"AB", "AB"}, {"BA"}).ok);
}

TEST(LcsCheck, NamesUnprintableBytesByCode) {
  auto v = lcs::Problem::check({std::string("\x01\x02", 2), "x"}, {std::string("\x01", 1)});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("0x01"), std::string::npos) << v.message;
}

TEST(LcsDims, AreIntegerLengths) {
  auto d = lcs::Problem::dims({"ABC", "DE"});
  EXPECT_EQ(std::get<std::int64_t>(d.at("n")), 3);
  EXPECT_EQ(std::get<std::int64_t>(d.at("m")), 2);
  EXPECT_EQ(d.size(), 2u);
  EXPECT_DOUBLE_EQ(lcs::Problem::work({"ABC", "DE"}), 6.0);
}

TEST(LcsRegistry, ProblemAndGeneratorsAreRegistered) {
  auto* p = dpgpu::Registry::get().problem("lcs");
  ASSERT_NE(p, nullptr);
  EXPECT_NE(p->generator("random"), nullptr);
  EXPECT_NE(p->generator("planted"), nullptr);
}

TEST(LcsRegistry, ErasedCheckRechecksCertificates) {
  auto* p = dpgpu::Registry::get().problem("lcs");
  ASSERT_NE(p, nullptr);
  auto x = dpgpu::erase_instance<lcs::Problem>({"t", textbook, 4});
  dpgpu::AnyOutcome good{4, std::make_shared<const lcs::Solution>(lcs::Solution{"BDAB"}), {}};
  dpgpu::AnyOutcome bad{4, std::make_shared<const lcs::Solution>(lcs::Solution{"BBBB"}), {}};
  EXPECT_TRUE(p->check(x, good)->ok);
  EXPECT_FALSE(p->check(x, bad)->ok);
  EXPECT_FALSE(p->check(x, dpgpu::AnyOutcome{4, nullptr, {}}).has_value());
}

}  // namespace
