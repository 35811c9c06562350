// The LCS readers reached through edit::Problem::load.
#include <gtest/gtest.h>

#include "edit/edit.hpp"
#include "testing/reader_fixture.hpp"

namespace {

class EditReaders : public dpgpu_test::ReaderFixture {
 protected:
  EditReaders() : ReaderFixture("edit") {}
};

TEST_F(EditReaders, FastaAndTextGiveThePairWithoutAKnownDistance) {
  auto fa = write("pair.fa", ">x\nac gt\n>y\nAGT\n");
  auto loaded = edit::Problem::load({{fa}, ""});
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].instance.a, "ACGT");
  EXPECT_EQ(loaded[0].instance.b, "AGT");
  EXPECT_EQ(loaded[0].name, "pair");
  EXPECT_FALSE(loaded[0].known_optimum.has_value());
  auto txt = write("pair.txt", "kitten\n\nsitting\n");
  auto t = edit::Problem::load({{txt}, ""});
  EXPECT_EQ(t.at(0).instance.a, "kitten");
  EXPECT_EQ(t.at(0).instance.b, "sitting");
}

TEST_F(EditReaders, ErrorsNameTheFile) {
  auto one = write("one.fa", ">x\nACGT\n");
  const auto why = load_error_of<edit::Problem>({{one}, ""});
  EXPECT_NE(why.find("one.fa"), std::string::npos) << why;
  EXPECT_NE(why.find("1 record"), std::string::npos) << why;
}

}  // namespace
