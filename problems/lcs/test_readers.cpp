// FASTA and plain-text readers: small files written here, and the shared sequences.
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "dpgpu/error.hpp"
#include "testing/reader_fixture.hpp"
#include "lcs/fasta.hpp"
#include "lcs/lcs.hpp"

namespace {

namespace fs = std::filesystem;

class LcsReaders : public dpgpu_test::ReaderFixture {
 protected:
  LcsReaders() : ReaderFixture("lcs") {}
  static lcs::Instance load_one(dpgpu::FileSource src, std::string* name = nullptr) {
    auto loaded = lcs::Problem::load(src);
    EXPECT_EQ(loaded.size(), 1u);
    if (name) *name = loaded.at(0).name;
    EXPECT_FALSE(loaded.at(0).known_optimum.has_value());
    return loaded.at(0).instance;
  }
  // The message of the InputError that loading `src` throws ("" if none).
  static std::string load_error(dpgpu::FileSource src) { return load_error_of<lcs::Problem>(src); }
};

TEST_F(LcsReaders, OneFastaFileGivesItsFirstTwoRecords) {
  auto path = write("pair.fa", ">first some words\nac gt\nAC\t\n\n>second\nGG\nTT\n>third\nCCCC\n");
  std::string name;
  auto x = load_one({{path}, ""}, &name);
  EXPECT_EQ(x.a, "ACGTAC");  // whitespace removed, letters upper-cased
  EXPECT_EQ(x.b, "GGTT");
  EXPECT_EQ(name, "pair");
}

TEST_F(LcsReaders, TwoFastaFilesGiveTheFirstRecordOfEach) {
  auto p1 = write("one.fasta", ">x\nAAA\nCCC\n>y\nTTTT\n");
  auto p2 = write("two.fna", "\n>z\r\nGGG\r\nA\r\n");  // CRLF line ends are not data
  std::string name;
  auto x = load_one({{p1, p2}, ""}, &name);
  EXPECT_EQ(x.a, "AAACCC");
  EXPECT_EQ(x.b, "GGGA");
  EXPECT_EQ(name, "one+two");
}

TEST_F(LcsReaders, FastaIsRecognisedByContentToo) {
  auto path = write("pair.txt", "\n>a\nXY\n>b\nYX\n");
  auto x = load_one({{path}, ""});
  EXPECT_EQ(x.a, "XY");
  EXPECT_EQ(x.b, "YX");
}

TEST_F(LcsReaders, SelectPicksTwoRecordsByIdOrIdField) {
  auto path =
      write("many.fa", ">gi|1|sp|P1.2|ONE\nAAA\n>gi|2|sp|P2.1|TWO\nCCC\n>plain desc\nGGG\n");
  std::string name;
  auto x = load_one({{path}, "plain,P1.2"}, &name);
  EXPECT_EQ(x.a, "GGG");
  EXPECT_EQ(x.b, "AAA");
  EXPECT_EQ(name, "many:plain+P1.2");
  EXPECT_NE(load_error({{path}, "P9,plain"}).find("no record named 'P9'"), std::string::npos);
  EXPECT_NE(load_error({{path}, "plain"}).find("two records"), std::string::npos);
}

TEST_F(LcsReaders, PlainTextGivesFirstTwoNonBlankLinesAsTheyAre) {
  auto path = write("pair.txt", "\n  \nhello World\r\n\nsecond line \nthird\n");
  auto x = load_one({{path}, ""});
  EXPECT_EQ(x.a, "hello World");
  EXPECT_EQ(x.b, "second line ");
  auto p1 = write("u.txt", "\nfirst\nignored\n"), p2 = write("v.txt", "other");
  std::string name;
  auto y = load_one({{p1, p2}, ""}, &name);
  EXPECT_EQ(y.a, "first");
  EXPECT_EQ(y.b, "other");
  EXPECT_EQ(name, "u+v");
}

TEST_F(LcsReaders, EmptyFastaRecordIsAnEmptyString) {
  auto path = write("e.fa", ">empty\n>full\nACGT\n");
  auto x = load_one({{path}, ""});
  EXPECT_EQ(x.a, "");
  EXPECT_EQ(x.b, "ACGT");
}

TEST_F(LcsReaders, MissingFileIsNamed) {
  auto missing = dir_ / "nope.fa";
  auto msg = load_error({{missing}, ""});
  EXPECT_NE(msg.find(missing.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
  auto ok = write("ok.fa", ">a\nA\n");
  EXPECT_NE(load_error({{ok, missing}, ""}).find(missing.string()), std::string::npos);
  EXPECT_NE(load_error({{dir_}, ""}).find("directory"), std::string::npos);
}

TEST_F(LcsReaders, FastaWithOneRecordSaysHowManyItHad) {
  auto path = write("single.fa", ">only\nACGT\n");
  auto msg = load_error({{path}, ""});
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("has 1 record"), std::string::npos) << msg;
}

TEST_F(LcsReaders, FastaWithNoRecordsIsNamed) {
  auto empty = write("empty.fa", "\n\n");
  auto ok = write("ok.fa", ">a\nA\n");
  auto msg = load_error({{ok, empty}, ""});
  EXPECT_NE(msg.find(empty.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("no records"), std::string::npos) << msg;
  EXPECT_NE(load_error({{empty}, ""}).find("has 0 records"), std::string::npos);
}

TEST_F(LcsReaders, SequenceBeforeFirstHeaderIsAnErrorWithLine) {
  auto path = write("bad.fa", "\nACGT\n>a\nA\n");
  auto msg = load_error({{path}, ""});
  EXPECT_NE(msg.find(path.string() + ":2:"), std::string::npos) << msg;
}

// Issue 30, finding 22: a UTF-8 byte-order mark was "sequence data before the first header".
TEST_F(LcsReaders, FastaWithAByteOrderMarkIsRead) {
  auto path = write("bom.fa", "\xEF\xBB\xBF>a\nACGT\n>b\nAGT\n");
  EXPECT_EQ(load_error({{path}, ""}), "");
  auto x = load_one({{path}, ""});
  EXPECT_EQ(x.a, "ACGT");
  EXPECT_EQ(x.b, "AGT");
  auto unnamed =
      write("bom.txt", "\xEF\xBB\xBF>a\nAC\n>b\nA\n");  // recognised as FASTA by content too
  EXPECT_EQ(load_one({{unnamed}, ""}).a, "AC");
  auto text = write("bom-lines.txt",
                    "\xEF\xBB\xBF"
                    "ACGT\nAGT\n");  // plain text: the mark is no symbol
  EXPECT_EQ(load_one({{text}, ""}).a, "ACGT");
}

// Issue 30, finding 22: lower case against upper case gave LCS 0 without a word. FASTA letters
// are read upper-cased (lower case marks soft-masked bases), so both spell the same string.
TEST_F(LcsReaders, FastaLowerAndUpperCaseCompareEqual) {
  auto lower = write("lower.fa", ">a\nacgtn\n");
  auto upper = write("upper.fa", ">b\nACGTN\n");
  auto x = load_one({{lower, upper}, ""});
  EXPECT_EQ(x.a, x.b);
  auto mixed = write("mixed.fa", ">a\nac-*gT\n>b\nAC-*Gt\n");  // non-letters are kept as they are
  auto y = load_one({{mixed}, ""});
  EXPECT_EQ(y.a, "AC-*GT");
  EXPECT_EQ(y.a, y.b);
}

TEST_F(LcsReaders, TextWithOneLineSaysSo) {
  auto path = write("one.txt", "just one\n\n");
  auto msg = load_error({{path}, ""});
  EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("has 1 non-empty line"), std::string::npos) << msg;
  auto blank = write("blank.txt", "  \n");
  EXPECT_NE(load_error({{path, blank}, ""}).find(blank.string()), std::string::npos);
}

TEST_F(LcsReaders, PathCountAndSelectMisuseAreRefused) {
  auto p = write("p.txt", "a\nb\n");
  EXPECT_NE(load_error({{}, ""}).find("got none"), std::string::npos);
  auto msg = load_error({{p, p, p}, ""});
  EXPECT_NE(msg.find("got 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find(p.string()), std::string::npos) << msg;
  EXPECT_NE(load_error({{p}, "a,b"}).find("select"), std::string::npos);
  EXPECT_NE(load_error({{p, p}, "a,b"}).find("select"), std::string::npos);
}

// The shared data folder (set by the test helper); skipped where it is absent.
fs::path shared_sequences() { return dpgpu::shared_data_dir("sequences"); }

TEST(LcsSharedSequences, PhagePairLoadsWithItsLengths) {
  auto dir = shared_sequences();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/sequences not present";
  auto loaded = lcs::Problem::load({{dir / "edlib_phage/Enterobacteria_phage_1.fasta",
                                     dir / "edlib_phage/mutated_90_perc.fasta"},
                                    ""});
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].name, "Enterobacteria_phage_1+mutated_90_perc");
  EXPECT_EQ(loaded[0].instance.a.size(), 94481u);
  EXPECT_EQ(loaded[0].instance.b.size(), 94662u);
  EXPECT_EQ(loaded[0].instance.a.find_first_not_of("ACGT"), std::string::npos);
}

TEST(LcsSharedSequences, ProteinQueriesGiveFirstTwoOrSelected) {
  auto dir = shared_sequences();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/sequences not present";
  auto file = dir / "cudasw4_queries/allqueries.fasta";
  auto first = lcs::Problem::load({{file}, ""});
  EXPECT_EQ(first.at(0).instance.a.size(), 144u);
  EXPECT_EQ(first.at(0).instance.b.size(), 189u);
  auto chosen = lcs::Problem::load({{file}, "Q9UKN1.2,Q38941"});
  EXPECT_EQ(chosen.at(0).instance.a.size(), 5478u);
  EXPECT_EQ(chosen.at(0).instance.b.size(), 850u);
}

}  // namespace
