// The TSPLIB reader on small files written here, each matrix worked out in the test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "dpgpu/error.hpp"
#include "testing/reader_fixture.hpp"
#include "tsp/tsp.hpp"
#include "tsp/tsplib.hpp"

namespace {

namespace fs = std::filesystem;
using Matrix = std::vector<std::int64_t>;

class TspReader : public dpgpu_test::ReaderFixture {
 protected:
  TspReader() : ReaderFixture("tsp") {}
  dpgpu::Loaded<tsp::Instance> load_one(const fs::path& path) {
    auto loaded = tsp::Problem::load({{path}, ""});
    EXPECT_EQ(loaded.size(), 1u);
    return std::move(loaded.at(0));
  }
  // The message of the InputError that loading `path` throws ("" if none).
  static std::string load_error(const fs::path& path, std::string select = "") {
    return load_error_of<tsp::Problem>({{path}, std::move(select)});
  }
  std::string error_of(const std::string& text) { return load_error(write("bad.tsp", text)); }
  std::string where(int line) const {
    return (dir_ / "bad.tsp").string() + ":" + std::to_string(line) + ": ";
  }
};

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

// A random symmetric 5×5 matrix with a zero diagonal, and its rows written out by hand
// for every explicit format: row-wise walks, and column-wise walks (the transpose).
constexpr int kN = 5;

Matrix symmetric_matrix(unsigned seed) {
  std::mt19937 rng(seed);
  Matrix m(kN * kN, 0);
  for (int i = 0; i < kN; ++i)
    for (int j = i + 1; j < kN; ++j) m[i * kN + j] = m[j * kN + i] = 1 + rng() % 997;
  return m;
}

// The numbers in file order for `format`, each walk spelled out on its own.
std::vector<std::int64_t> section_numbers(const std::string& format, const Matrix& m) {
  std::vector<std::int64_t> out;
  auto at = [&](int i, int j) { return m[i * kN + j]; };
  if (format == "FULL_MATRIX")
    for (int i = 0; i < kN; ++i)
      for (int j = 0; j < kN; ++j) out.push_back(at(i, j));
  if (format == "UPPER_ROW")
    for (int i = 0; i < kN; ++i)
      for (int j = i + 1; j < kN; ++j) out.push_back(at(i, j));
  if (format == "LOWER_ROW")
    for (int i = 0; i < kN; ++i)
      for (int j = 0; j < i; ++j) out.push_back(at(i, j));
  if (format == "UPPER_DIAG_ROW")
    for (int i = 0; i < kN; ++i)
      for (int j = i; j < kN; ++j) out.push_back(at(i, j));
  if (format == "LOWER_DIAG_ROW")
    for (int i = 0; i < kN; ++i)
      for (int j = 0; j <= i; ++j) out.push_back(at(i, j));
  if (format == "UPPER_COL")  // column j, rows above the diagonal
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < j; ++i) out.push_back(at(i, j));
  if (format == "LOWER_COL")
    for (int j = 0; j < kN; ++j)
      for (int i = j + 1; i < kN; ++i) out.push_back(at(i, j));
  if (format == "UPPER_DIAG_COL")
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i <= j; ++i) out.push_back(at(i, j));
  if (format == "LOWER_DIAG_COL")
    for (int j = 0; j < kN; ++j)
      for (int i = j; i < kN; ++i) out.push_back(at(i, j));
  return out;
}

// Numbers wrapped `per_line` to a line, as real files do in all sorts of ways.
std::string wrapped(const std::vector<std::int64_t>& numbers, std::size_t per_line) {
  std::string text;
  for (std::size_t k = 0; k < numbers.size(); ++k)
    text += std::to_string(numbers[k]) +
            ((k + 1) % per_line == 0 || k + 1 == numbers.size() ? "\n" : "  ");
  return text;
}

TEST_F(TspReader, EveryExplicitFormatGivesTheSameMatrix) {
  const char* formats[] = {"FULL_MATRIX",    "UPPER_ROW",      "LOWER_ROW",
                           "UPPER_DIAG_ROW", "LOWER_DIAG_ROW", "UPPER_COL",
                           "LOWER_COL",      "UPPER_DIAG_COL", "LOWER_DIAG_COL"};
  const std::size_t counts[] = {25, 10, 10, 15, 15, 10, 10, 15, 15};
  unsigned seed = 1;
  for (std::size_t f = 0; f < std::size(formats); ++f) {
    const auto m = symmetric_matrix(seed++);
    const auto numbers = section_numbers(formats[f], m);
    ASSERT_EQ(numbers.size(), counts[f]) << formats[f];
    for (std::size_t per_line : {std::size_t(1), std::size_t(4), numbers.size()}) {
      const std::string text =
          std::string("NAME: m5\nTYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EXPLICIT\n") +
          "EDGE_WEIGHT_FORMAT: " + formats[f] + "\nEDGE_WEIGHT_SECTION\n" +
          wrapped(numbers, per_line) + "EOF\n";
      auto x = load_one(write("m5.tsp", text)).instance;
      EXPECT_EQ(x.n, 5);
      EXPECT_EQ(x.dist, m) << formats[f] << " " << per_line << " per line";
      EXPECT_TRUE(x.symmetric);
      EXPECT_EQ(x.edge_weight_type, "EXPLICIT");
    }
  }
}

TEST_F(TspReader, AtspFullMatrixIsReadAsGivenDiagonalIncluded) {
  auto x = load_one(
      write("a3.atsp",
            "NAME:a3\nTYPE:ATSP\nCOMMENT:three cities\nDIMENSION:3\nEDGE_WEIGHT_TYPE:EXPLICIT\n"
            "EDGE_WEIGHT_FORMAT:FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"
            "9999 1 2\n3 9999 4 5 6\n9999\nEOF\n"));
  EXPECT_EQ(x.instance.dist, (Matrix{9999, 1, 2, 3, 9999, 4, 5, 6, 9999}));
  EXPECT_FALSE(x.instance.symmetric);
  EXPECT_EQ(x.instance.comment, "three cities");
  EXPECT_EQ(x.name, "a3");
  // The diagonal is never part of a tour.
  EXPECT_EQ(tsp::Problem::check(x.instance, {{0, 1, 2}}).objective, 1 + 4 + 5);
}

TEST_F(TspReader, KeywordSpacingCaseAndLineEndsVary) {
  auto x = load_one(write("v.tsp",
                          "NAME : v.tsp\r\n"
                          "type:tsp\r\n"
                          "DIMENSION    :   2\r\n"
                          "EDGE_WEIGHT_TYPE:  EXPLICIT   \r\n"
                          "EDGE_WEIGHT_FORMAT :UPPER_ROW\r\n"
                          "EDGE_WEIGHT_SECTION :\r\n"
                          "\r\n"
                          "   17   \r\n"
                          " EOF\r\n"
                          "anything after EOF is not read 1 2 3\n"));
  EXPECT_EQ(x.instance.dist, (Matrix{0, 17, 17, 0}));
  EXPECT_EQ(x.name, "v");  // NAME without its extension
}

TEST_F(TspReader, MissingEofAndMissingNameAreFine) {
  auto x = load_one(write("nameless.tsp",
                          "TYPE: TSP\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\n"
                          "NODE_COORD_SECTION\n1 0 0\n2 3 4\n"));
  EXPECT_EQ(x.name, "nameless");
  EXPECT_EQ(x.instance.name, "nameless");
  EXPECT_EQ(x.instance.dist, (Matrix{0, 5, 5, 0}));
}

// Coordinates chosen so that every distance type differs, each worked out by hand:
//   city 1 (0, 0), city 2 (3, 4), city 3 (1, 1), city 4 (0, 2.5).
std::string coordinates_file(const std::string& type) {
  return "NAME: c4\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: " + type +
         "\nNODE_COORD_SECTION\n"
         "1 0 0\n3 1.0 1e0\n2 3 4\n4 0 2.5\n"  // nodes may come in any order
         "DISPLAY_DATA_SECTION\n1 5 5\n2 6 6\n3 7 7\n4 8 8\nEOF\n";
}

Matrix symmetric4(std::int64_t d12, std::int64_t d13, std::int64_t d14, std::int64_t d23,
                  std::int64_t d24, std::int64_t d34) {
  return {0, d12, d13, d14, d12, 0, d23, d24, d13, d23, 0, d34, d14, d24, d34, 0};
}

TEST_F(TspReader, EveryCoordinateDistanceType) {
  // Pairs: 1-2 (3,4): 5; 1-3 (1,1): 1.414; 1-4 (0,2.5): 2.5; 2-3 (2,3): 3.606;
  //        2-4 (3,1.5): 3.354; 3-4 (1,1.5): 1.803.
  EXPECT_EQ(load_one(write("e.tsp", coordinates_file("EUC_2D"))).instance.dist,
            symmetric4(5, 1, 3, 4, 3, 2));
  EXPECT_EQ(load_one(write("c.tsp", coordinates_file("CEIL_2D"))).instance.dist,
            symmetric4(5, 2, 3, 4, 4, 2));
  // Manhattan: 7, 2, 2.5 → 3, 5, 4.5 → 5, 2.5 → 3.
  EXPECT_EQ(load_one(write("m.tsp", coordinates_file("MAN_2D"))).instance.dist,
            symmetric4(7, 2, 3, 5, 5, 3));
  // ATT, sqrt(d²/10): 1.581 → 2, 0.447 → 1, 0.791 → 1, 1.140 → 2, 1.061 → 2, 0.570 → 1.
  EXPECT_EQ(load_one(write("a.tsp", coordinates_file("ATT"))).instance.dist,
            symmetric4(2, 1, 1, 2, 2, 1));
  auto c = load_one(write("ec.tsp", coordinates_file("EUC_2D"))).instance;
  ASSERT_EQ(c.coords.size(), 4u);
  EXPECT_EQ(c.coords[2].x, 1.0);  // node 3, given second
  EXPECT_EQ(c.coords[2].y, 1.0);
  EXPECT_EQ(c.edge_weight_type, "EUC_2D");
}

TEST_F(TspReader, GeoFileUsesLatitudeThenLongitude) {
  auto x = load_one(write("g.tsp",
                          "NAME: g\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: GEO\n"
                          "EDGE_WEIGHT_FORMAT: FUNCTION\nDISPLAY_DATA_TYPE: COORD_DISPLAY\n"
                          "NODE_COORD_SECTION\n 1 0.00 0.00\n 2 0.00 1.00\n 3 1.00 0.00\nEOF\n"));
  EXPECT_EQ(x.instance.arc(0, 1), 112);  // one degree of the equator
  EXPECT_EQ(x.instance.arc(0, 2), 112);  // one degree of a meridian
  EXPECT_EQ(x.instance.arc(0, 0), 0);
}

TEST_F(TspReader, KnownOptimumComesFromOptimaTsvNextToTheFile) {
  write("OPTIMA.tsv", "name\ttype\tdimension\toptimum\nm2\tTSP\t2\t34\nother\tATSP\t2\t1\n");
  const std::string body =
      "TYPE: TSP\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: "
      "UPPER_ROW\nEDGE_WEIGHT_SECTION\n17\nEOF\n";
  EXPECT_EQ(load_one(write("x.tsp", "NAME: m2.tsp\n" + body)).known_optimum, 34);  // by NAME
  EXPECT_EQ(load_one(write("m2.tsp", body)).known_optimum, 34);                    // by file stem
  EXPECT_FALSE(load_one(write("y.tsp", "NAME: y\n" + body)).known_optimum.has_value());
  auto wrong_type = load_error(write("other.tsp", body));
  EXPECT_HAS(wrong_type, "OPTIMA.tsv:3: 'other' has type ATSP there");
  write("OPTIMA.tsv", "name\tdimension\toptimum\nm2\t3\t34\n");
  EXPECT_HAS(load_error(dir_ / "m2.tsp"), "OPTIMA.tsv:2: 'm2' has dimension 3 there");
  write("OPTIMA.tsv", "name\toptimum\nm2\tabc\n");
  EXPECT_HAS(load_error(dir_ / "m2.tsp"), "OPTIMA.tsv:2: optimum 'abc' is not an integer");
  write("OPTIMA.tsv", "instance\tbest\n");
  EXPECT_HAS(load_error(dir_ / "m2.tsp"), "OPTIMA.tsv:1: the header row must name");
}

TEST_F(TspReader, SeveralPathsGiveSeveralInstances) {
  const std::string body =
      "TYPE: TSP\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: "
      "UPPER_ROW\nEDGE_WEIGHT_SECTION\n";
  auto loaded =
      tsp::Problem::load({{write("p.tsp", body + "1\n"), write("q.tsp", body + "2\n")}, ""});
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].name, "p");
  EXPECT_EQ(loaded[1].instance.arc(0, 1), 2);
  EXPECT_HAS(load_error(dir_ / "p.tsp", "p"), "select is not used");
}

// --- errors: each names the file and the line ---

const std::string kHead = "NAME: bad\nTYPE: TSP\nDIMENSION: 3\n";  // lines 1-3

TEST_F(TspReader, MissingFile) {
  EXPECT_HAS(load_error(dir_ / "absent.tsp"), "absent.tsp: no such file");
}

TEST_F(TspReader, UnsupportedEdgeWeightTypeListsTheSupportedOnes) {
  auto e = error_of(kHead + "EDGE_WEIGHT_TYPE: EUC_3D\nNODE_COORD_SECTION\n");
  EXPECT_HAS(e, where(4) + "EDGE_WEIGHT_TYPE 'EUC_3D' is not supported");
  EXPECT_HAS(e, "EXPLICIT, EUC_2D, CEIL_2D, ATT, GEO, MAN_2D");
}

TEST_F(TspReader, UnsupportedValuesOfOtherKeywords) {
  EXPECT_HAS(error_of("TYPE: CVRP\n"),
             where(1) + "TYPE 'CVRP' is not supported; supported: TSP, ATSP");
  EXPECT_HAS(
      error_of(kHead + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: TRIANGLE\n"),
      where(5) +
          "EDGE_WEIGHT_FORMAT 'TRIANGLE' is not supported; supported: FUNCTION, FULL_MATRIX");
  EXPECT_HAS(error_of(kHead + "NODE_COORD_TYPE: THREED_COORDS\n"),
             where(4) + "NODE_COORD_TYPE 'THREED_COORDS'");
  EXPECT_HAS(error_of(kHead + "DISPLAY_DATA_TYPE: FANCY\n"),
             where(4) + "DISPLAY_DATA_TYPE 'FANCY'");
  EXPECT_HAS(error_of(kHead + "CAPACITY: 10\n"), where(4) + "CAPACITY belongs to TYPE CVRP");
  EXPECT_HAS(error_of(kHead + "COLOUR: red\n"), where(4) + "unknown keyword 'COLOUR'");
  EXPECT_HAS(error_of(kHead + "DIMENSION: 4\n"),
             where(4) + "DIMENSION given twice (first on line 3)");
}

TEST_F(TspReader, BadOrMissingDimension) {
  EXPECT_HAS(error_of("TYPE: TSP\nDIMENSION: three\n"),
             where(2) + "DIMENSION 'three' must be an integer in [1, 20000]");
  EXPECT_HAS(error_of("TYPE: TSP\nDIMENSION: 0\n"), where(2) + "DIMENSION '0'");
  EXPECT_HAS(error_of("TYPE: TSP\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n"),
             where(3) + "NODE_COORD_SECTION before DIMENSION: missing DIMENSION");
  EXPECT_HAS(error_of("TYPE: TSP\nEDGE_WEIGHT_TYPE: EUC_2D\nEOF\n"),
             where(3) + "missing DIMENSION");
  EXPECT_HAS(error_of("DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n"), where(2) + "missing TYPE");
  EXPECT_HAS(error_of(kHead + "EOF\n"), where(4) + "missing EDGE_WEIGHT_TYPE");
}

TEST_F(TspReader, TooFewNumbersSaysHowManyExpectedAndFound) {
  // Lines 4-5 header, 6 section, 7 data, 8 EOF.
  auto e =
      error_of(kHead +
               "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"
               "0 1 2 3 0 4 5\nEOF\n");
  EXPECT_HAS(e,
             where(8) + "EDGE_WEIGHT_SECTION (line 6) has 7 numbers before this line, expected 9");
  EXPECT_HAS(e, "FULL_MATRIX for 3 cities");
  auto at_end = error_of(kHead + "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n");
  EXPECT_HAS(
      at_end,
      where(7) + "NODE_COORD_SECTION (line 5) has 6 numbers at the end of the file, expected 9");
}

TEST_F(TspReader, TooManyNumbers) {
  auto same_line = error_of(kHead +
                            "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                            "EDGE_WEIGHT_SECTION\n1 2 3 4\n");
  EXPECT_HAS(same_line,
             where(7) + "EDGE_WEIGHT_SECTION (line 6) holds more than the 3 numbers expected");
  auto next_line = error_of(kHead +
                            "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                            "EDGE_WEIGHT_SECTION\n1 2\n3\n\n4\nEOF\n");
  EXPECT_HAS(next_line,
             where(10) + "EDGE_WEIGHT_SECTION (line 6) holds more than the 3 numbers expected");
}

TEST_F(TspReader, NonNumericTokens) {
  EXPECT_HAS(error_of(kHead + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                              "EDGE_WEIGHT_SECTION\n1\n2 x3\n"),
             where(8) + "EDGE_WEIGHT_SECTION: 'x3' is not an integer");
  EXPECT_HAS(error_of(kHead + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                              "EDGE_WEIGHT_SECTION\n1 2.5 3\n"),
             where(7) + "EDGE_WEIGHT_SECTION: '2.5' is not an integer");
  EXPECT_HAS(
      error_of(kHead + "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1,5 1\n3 2 2\n"),
      where(7) + "NODE_COORD_SECTION: '1,5' is not a number");
  EXPECT_HAS(error_of(kHead + "EDGE_WEIGHT_TYPE: EUC_2D\n7 0 0\n"),
             where(5) + "numbers outside any section");
}

TEST_F(TspReader, BadNodeNumbers) {
  EXPECT_HAS(
      error_of(kHead + "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n4 1 1\n3 2 2\n"),
      where(7) + "NODE_COORD_SECTION: node number 4 is not in [1, 3]");
  EXPECT_HAS(
      error_of(kHead + "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n1 2 2\n"),
      where(8) + "NODE_COORD_SECTION: node 1 given twice (first on line 6)");
}

TEST_F(TspReader, BadWeights) {
  EXPECT_HAS(error_of(kHead + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                              "EDGE_WEIGHT_SECTION\n1\n-2\n3\n"),
             where(8) + "EDGE_WEIGHT_SECTION: weight -2 of arc 1->3 is outside [0, 1000000000000]");
  EXPECT_HAS(
      error_of(kHead + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\n"
                       "EDGE_WEIGHT_SECTION\n0 1 2\n1 0 3\n2 4 0\n"),
      where(9) + "TYPE TSP needs a symmetric matrix, but arc 2->3 weighs 3 and arc 3->2 weighs 4");
  EXPECT_HAS(
      error_of(kHead + "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1e13 0\n3 0 0\n"),
      where(5) + "EUC_2D distance from city 1 to city 2 exceeds");
}

TEST_F(TspReader, ExplicitNeedsAFormatAndASection) {
  EXPECT_HAS(error_of(kHead + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n1 2 3\n"),
             where(5) + "EDGE_WEIGHT_SECTION before EDGE_WEIGHT_FORMAT");
  EXPECT_HAS(
      error_of(kHead +
               "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FUNCTION\nEDGE_WEIGHT_SECTION\n"),
      where(6) + "EDGE_WEIGHT_SECTION needs a matrix EDGE_WEIGHT_FORMAT, not FUNCTION");
  EXPECT_HAS(error_of(kHead + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEOF\n"),
             where(6) + "EDGE_WEIGHT_TYPE EXPLICIT needs an EDGE_WEIGHT_SECTION");
  EXPECT_HAS(error_of(kHead + "EDGE_WEIGHT_TYPE: GEO\nEOF\n"),
             where(5) + "EDGE_WEIGHT_TYPE GEO needs a NODE_COORD_SECTION");
}

}  // namespace
