// The S-DP problem: generators, file reader errors, bounds, check.
#include <gtest/gtest.h>

#include <string>

#include "dpgpu/error.hpp"
#include "sdp/file_format.hpp"
#include "sdp/generators.hpp"
#include "sdp/sdp.hpp"

namespace sdp {
namespace {

TEST(SdpGenerators, OffsetPatterns) {
  EXPECT_EQ(consecutive_offsets(3), (std::vector<std::int64_t>{3, 2, 1}));
  EXPECT_EQ(strided_offsets(3, 10), (std::vector<std::int64_t>{30, 20, 10}));
  auto r = random_offsets(8, 20, 7);
  ASSERT_EQ(r.size(), 8u);
  for (std::size_t j = 0; j < r.size(); ++j) {
    EXPECT_GE(r[j], 1);
    EXPECT_LT(r[j], 20);
    if (j) {
      EXPECT_LT(r[j], r[j - 1]);
    }
  }
  EXPECT_EQ(random_offsets(19, 20, 1).size(), 19u);  // every value of 1..19
  EXPECT_THROW(random_offsets(20, 20, 1), dpgpu::InputError);
  EXPECT_THROW(consecutive_offsets(0), dpgpu::InputError);
}

TEST(SdpGenerators, InitialValuesInRangeAndDeterministic) {
  auto x = make_instance(100, Op::add, 7, strided_offsets(3, 5), 1000, 42);
  ASSERT_EQ(x.init.size(), 15u);
  for (auto v : x.init) EXPECT_LT(v, 7u);  // add: below the modulus
  auto y = make_instance(100, Op::add, 7, strided_offsets(3, 5), 1000, 42);
  EXPECT_EQ(x.init, y.init);
  EXPECT_EQ(why_malformed(x), "");
}

TEST(SdpCheck, RecomputesTheTable) {
  Instance x;  // Fibonacci: k = 2, a0 = 2, a1 = 1, add, ST[0] = ST[1] = 1
  x.n = 10;
  x.op = Op::add;
  x.modulus = 1000;
  x.offsets = {2, 1};
  x.init = {1, 1};
  const Answer a = reference_answer(x);
  EXPECT_EQ(a.objective, 55u);
  EXPECT_EQ(a.checksum, 1u + 1 + 2 + 3 + 5 + 8 + 13 + 21 + 34 + 55);
  auto ok = Problem::check(x, Solution{a.checksum});
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.objective, 55);
  auto bad = Problem::check(x, Solution{a.checksum + 1});
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("checksum"), std::string::npos);
  x.init = {1, 2};  // an edited instance: the cache must not answer for the old one
  EXPECT_EQ(reference_answer(x).objective, 89u);
}

TEST(SdpCheck, ShortTableIsItsInitialValues) {
  Instance x;
  x.n = 2;
  x.op = Op::max;
  x.offsets = {4, 1};
  x.init = {3, 9, 100, 7};
  EXPECT_EQ(reference_answer(x).objective, 9u);
  EXPECT_EQ(reference_answer(x).checksum, 12u);
  EXPECT_EQ(Problem::work(x), 0.0);
}

TEST(SdpFile, ReadsTheIssuesExample) {
  auto l = parse_instance(
      "n 1000000\nop add\nmodulus 1000000007\noffsets 6 3 1\ninit 5 0 7 1 2 9   # a0 values\n",
      "ex.sdp");
  EXPECT_EQ(l.name, "ex");
  EXPECT_EQ(l.instance.n, 1000000);
  EXPECT_EQ(l.instance.op, Op::add);
  EXPECT_EQ(l.instance.offsets, (std::vector<std::int64_t>{6, 3, 1}));
  EXPECT_EQ(l.instance.init, (std::vector<std::uint64_t>{5, 0, 7, 1, 2, 9}));
}

TEST(SdpFile, ListsContinueOnNumberLines) {
  auto l = parse_instance("# comment\nn 9\nop min\noffsets 4\n 2 1\ninit 1 2\n3 4\n", "c.sdp");
  EXPECT_EQ(l.instance.offsets, (std::vector<std::int64_t>{4, 2, 1}));
  EXPECT_EQ(l.instance.init.size(), 4u);
}

void expect_error(const std::string& text, const std::string& part) {
  try {
    parse_instance(text, "bad.sdp");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
        << e.what() << " (wanted " << part << ")";
  }
}

TEST(SdpFile, ErrorsNameFileAndLine) {
  expect_error("n 10\nop max\noffsets 3 1\ninit 1 2\n",
               "bad.sdp:4: 2 initial values given, a0 = 3 needed");
  expect_error("n 10\nop max\noffsets 1 3\ninit 1\n", "bad.sdp:3: offsets must decrease");
  expect_error("n 10\nop mul\noffsets 1\ninit 1\n", "bad.sdp:2: op: unknown operator 'mul'");
  expect_error("n ten\nop max\noffsets 1\ninit 1\n", "bad.sdp:1: n 'ten' is not an integer");
  expect_error("n 10\nop max\nfoo 3\n", "bad.sdp:3: unknown key 'foo'");
  expect_error("n 10\nn 11\n", "bad.sdp:2: key 'n' repeated");
  expect_error("n 10\nop max\noffsets 2 1\n", "missing key 'init'");
  expect_error("n 10\nop add\nmodulus 5\noffsets 1\ninit 5\n",
               "bad.sdp:5: initial value 5 (ST[0]) is not below the modulus");
  expect_error("n 10\nop max\noffsets 0\ninit\n", "bad.sdp:3: offset a0 = 0 is not positive");
  expect_error("5 6\n", "bad.sdp:1: numbers without a key");
  expect_error("n 10\nop max\noffsets 1\ninit -1\n", "bad.sdp:4: initial value -1 is negative");
}

TEST(SdpProblem, Dims) {
  auto x = make_instance(1000, Op::max, kDefaultModulus, strided_offsets(4, 8), 100, 1);
  auto d = Problem::dims(x);
  EXPECT_EQ(d.count("max_p"), 0u);  // the pipeline strategy's, not the problem's
  EXPECT_EQ(std::get<std::int64_t>(d.at("a0")), 32);
  EXPECT_EQ(Problem::work(x), double(1000 - 32) * 4);
}

}  // namespace
}  // namespace sdp
