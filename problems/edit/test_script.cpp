// The edit script: applying it, its cost, the certificate check, and the registration.
#include <gtest/gtest.h>

#include "dpgpu/registry.hpp"
#include "edit/edit.hpp"

namespace {

const edit::Instance kitten{"kitten", "sitting"};  // distance 3

TEST(EditCheck, AcceptsAScriptThatMakesBAndCountsItsEdits) {
  // k->s, e->i, insert g
  const edit::Script s{"X===X=I", "sig"};
  auto v = edit::Problem::check(kitten, {s});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 3);
}

TEST(EditCheck, AcceptsACostlierScriptWithItsOwnCost) {
  // delete all of a, insert all of b: 6 + 7
  auto v = edit::Problem::check(kitten, {{"DDDDDDIIIIIII", "sitting"}});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 13);
}

TEST(EditCheck, EmptyStringsAndEmptyScript) {
  auto v = edit::Problem::check({"", ""}, {{"", ""}});
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.objective, 0);
  EXPECT_EQ(edit::Problem::check({"", "ab"}, {{"II", "ab"}}).objective, 2);
  EXPECT_EQ(edit::Problem::check({"ab", ""}, {{"DD", ""}}).objective, 2);
}

TEST(EditCheck, RejectsAScriptThatMakesAnotherString) {
  auto v = edit::Problem::check(kitten, {{"X===X=I", "sit"}});  // "sittint"
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("differs from b"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("position 6"), std::string::npos) << v.message;
}

TEST(EditCheck, RejectsMalformedScriptsNamingTheOperation) {
  auto past = edit::Problem::check(kitten, {{"=======", ""}});
  EXPECT_FALSE(past.ok);
  EXPECT_NE(past.message.find("operation #7"), std::string::npos) << past.message;
  auto letter = edit::Problem::check(kitten, {{"X=M", "s"}});
  EXPECT_FALSE(letter.ok);
  EXPECT_NE(letter.message.find("'M'"), std::string::npos) << letter.message;
  auto short_symbols = edit::Problem::check(kitten, {{"X===X=I", "si"}});
  EXPECT_FALSE(short_symbols.ok);
  EXPECT_NE(short_symbols.message.find("needs symbol #3"), std::string::npos);
  auto leftover = edit::Problem::check(kitten, {{"X===X", "si"}});
  EXPECT_FALSE(leftover.ok);
  EXPECT_NE(leftover.message.find("uses 5 of a's 6"), std::string::npos) << leftover.message;
  auto extra = edit::Problem::check(kitten, {{"X===X=I", "sigg"}});
  EXPECT_FALSE(extra.ok);
}

TEST(EditScript, FromColumnsTakesTheNewSymbolsFromB) {
  auto s = edit::script_from_columns("X===X=I", "kitten", "sitting");
  EXPECT_EQ(s.symbols, "sig");
  EXPECT_EQ(edit::cost(s), 3);
  EXPECT_THROW(edit::script_from_columns("====", "kitten", "sitting"), std::invalid_argument);
  EXPECT_THROW(edit::script_from_columns("=", "a", "b"), std::invalid_argument);
}

TEST(EditDims, AreIntegerLengthsAndWorkIsCells) {
  auto d = edit::Problem::dims({"ABC", "DE"});
  EXPECT_EQ(std::get<std::int64_t>(d.at("n")), 3);
  EXPECT_EQ(std::get<std::int64_t>(d.at("m")), 2);
  EXPECT_DOUBLE_EQ(edit::Problem::work({"ABC", "DE"}), 6.0);
}

TEST(EditRegistry, ProblemAndGeneratorsAreRegistered) {
  auto* p = dpgpu::Registry::get().problem("edit");
  ASSERT_NE(p, nullptr);
  for (const char* g : {"random", "planted", "mutated"}) EXPECT_NE(p->generator(g), nullptr) << g;
}

}  // namespace
