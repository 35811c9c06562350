// File readers on small files written here: each format, OPTIMA.tsv, select, and errors that
// name the file and line.
#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

#include "dpgpu/error.hpp"
#include "testing/reader_fixture.hpp"
#include "knapsack/knapsack.hpp"

namespace {

namespace fs = std::filesystem;
using Loaded = dpgpu::Loaded<knapsack::Instance>;

class KnapsackReaders : public dpgpu_test::ReaderFixture {
 protected:
  KnapsackReaders() : ReaderFixture("knapsack") {}
  static std::vector<Loaded> load(std::vector<fs::path> paths, std::string select = "") {
    return knapsack::Problem::load({std::move(paths), std::move(select)});
  }
  static Loaded load_one(const fs::path& path) {
    auto all = load({path});
    EXPECT_EQ(all.size(), 1u);
    return all.at(0);
  }
  // The message of the InputError that loading throws ("" if none).
  static std::string load_error(std::vector<fs::path> paths, std::string select = "") {
    return load_error_of<knapsack::Problem>({std::move(paths), std::move(select)});
  }
  std::string in_dir(const std::string& name) const { return (dir_ / name).string(); }
};

// ---- the whitespace formats (Pisinger's large_scale, kplib .kp) ----

TEST_F(KnapsackReaders, LargeScaleLayoutWithoutSolution) {
  auto x = load_one(write("knapPI_1_3_1000_1", "3 \n10\n5 4\n6 5\n7 6\n"));
  EXPECT_EQ(x.name, "knapPI_1_3_1000_1");
  EXPECT_EQ(x.instance.capacity, 10);
  EXPECT_EQ(x.instance.value, (std::vector<std::int64_t>{5, 6, 7}));
  EXPECT_EQ(x.instance.weight, (std::vector<std::int64_t>{4, 5, 6}));
  EXPECT_FALSE(x.known_optimum.has_value());
}

TEST_F(KnapsackReaders, SolutionVectorGivesTheKnownOptimum) {
  auto x = load_one(write("with_x", "3 10\r\n5 4\r\n6 5\r\n7 6\r\n1 0 1\r\n"));
  EXPECT_EQ(x.instance.capacity, 10);
  ASSERT_TRUE(x.known_optimum.has_value());
  EXPECT_EQ(*x.known_optimum, 12);
  // The vector may spread over lines too.
  auto y = load_one(write("spread", "3 10\n5 4\n6 5\n7 6\n1\n1\n0\n"));
  EXPECT_EQ(*y.known_optimum, 11);
}

TEST_F(KnapsackReaders, KplibLayout) {
  auto x = load_one(write("n00003_R01000_s000.kp", "\n3\n9\n\n4 4\n5 5\n3 3\n"));
  EXPECT_EQ(x.name, "n00003_R01000_s000");
  EXPECT_EQ(x.instance.capacity, 9);
  EXPECT_EQ(x.instance.value, (std::vector<std::int64_t>{4, 5, 3}));
  EXPECT_FALSE(x.known_optimum.has_value());
}

TEST_F(KnapsackReaders, ZeroItemsAndZeroCapacity) {
  auto x = load_one(write("empty.kp", "0 0\n"));
  EXPECT_EQ(x.instance.size(), 0u);
  EXPECT_EQ(x.instance.capacity, 0);
}

TEST_F(KnapsackReaders, ItemLineWithOneNumberNamesFileAndLine) {
  auto path = write("x.kp", "\n3\n9\n\n4 4\n5 5\n3\n");
  EXPECT_EQ(load_error({path}),
            in_dir("x.kp") + ":7: expected 2 numbers (value weight) for item 3, found 1");
}

TEST_F(KnapsackReaders, PlainFormatErrorsNameFileAndLine) {
  struct Case {
    const char* text;
    std::string expected;  // after "PATH:"
  };
  const Case cases[] = {
      {"3 10\n5 4\n6 five\n7 6\n", "3: 'five' is not an integer"},
      {"3 10\n5 4\n6 -5\n7 6\n", "3: item 2 has negative weight -5"},
      {"3 10\n-5 4\n6 5\n7 6\n", "2: item 1 has negative value -5"},
      {"3 10\n5 4\n\n6 5\n", "4: the file ends after 2 of its 3 items"},
      {"3 10 7\n5 4\n", "1: expected the number of items and the capacity first, found 3 numbers"},
      {"-3 10\n", "1: negative number of items -3"},
      {"3\n-10\n", "2: negative capacity -10"},
      {"\n\n", "2: no data: expected the number of items and the capacity"},
      {"3\n", "1: the file ends after the number of items: expected the capacity"},
      {"2 10\n5 4\n6 5\n1 0 1\n",
       "4: after the items, expected nothing or a 0/1 solution vector of 2 entries, found 3 "
       "fields"},
      {"2 10\n5 4\n6 5\n1\n2\n", "5: solution vector entry 2 is 2, not 0 or 1"},
      {"2 8\n5 4\n6 5\n1 1\n", "4: the solution vector weighs 9, more than the capacity 8"},
      {"1 10\n5 99999999999999999999\n", "2: 99999999999999999999 does not fit a 64-bit integer"},
  };
  for (auto& c : cases) {
    auto path = write("bad.txt", c.text);
    EXPECT_EQ(load_error({path}), in_dir("bad.txt") + ":" + c.expected) << c.text;
  }
}

TEST_F(KnapsackReaders, OverflowingTotalsAreRejected) {
  auto path = write("huge", "2 10\n5000000000000000000 1\n5000000000000000000 1\n");
  EXPECT_EQ(load_error({path}), in_dir("huge") + ": the total value does not fit a 64-bit integer");
}

TEST_F(KnapsackReaders, MissingFileAndFolder) {
  EXPECT_EQ(load_error({dir_ / "nope.kp"}), in_dir("nope.kp") + ": no such file");
  EXPECT_NE(load_error({dir_}).find("is a directory"), std::string::npos);
  EXPECT_NE(load_error({}).find("at least one path"), std::string::npos);
}

// ---- Pisinger's CSV files ----

const char* const kTwoInstances =
    "knapPI_1_3_1000_1\nn 3\nc 10\nz 12\ntime 0.00\n1,5,4,1\n2,6,5,0\n3,7,6,1\n-----\n\n"
    "knapPI_1_3_1000_2\nn 3\nc 4\nz 5\ntime 0.01\n1,5,4,1\n2,6,5,0\n3,7,6,0\n-----\n";

TEST_F(KnapsackReaders, CsvFileExpandsIntoAllItsInstances) {
  auto all = load({write("knapPI_1_3_1000.csv", kTwoInstances)});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "knapPI_1_3_1000_1");
  EXPECT_EQ(all[0].instance.capacity, 10);
  EXPECT_EQ(all[0].instance.weight, (std::vector<std::int64_t>{4, 5, 6}));
  EXPECT_EQ(*all[0].known_optimum, 12);
  EXPECT_EQ(all[1].name, "knapPI_1_3_1000_2");
  EXPECT_EQ(*all[1].known_optimum, 5);
}

TEST_F(KnapsackReaders, CsvRecognisedByContent) {
  auto all = load({write("pisinger.txt", kTwoInstances)});
  EXPECT_EQ(all.size(), 2u);
}

TEST_F(KnapsackReaders, SelectPicksOneInstanceByName) {
  auto path = write("two.csv", kTwoInstances);
  auto one = load({path}, "knapPI_1_3_1000_2");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].instance.capacity, 4);
  // A single-instance file is selected by its stem.
  auto plain = write("single.kp", "1 1\n1 1\n");
  EXPECT_EQ(load({path, plain}, "single").at(0).instance.size(), 1u);
}

TEST_F(KnapsackReaders, SelectOfAMissingNameListsSomeThatExist) {
  auto path = write("two.csv", kTwoInstances);
  EXPECT_EQ(load_error({path}, "knapPI_9"), in_dir("two.csv") +
                                                ": select: no instance named 'knapPI_9'; there are "
                                                "2: knapPI_1_3_1000_1, knapPI_1_3_1000_2");
  std::string many;
  for (int k = 1; k <= 7; ++k)
    many += "i" + std::to_string(k) + "\nn 1\nc 1\nz 0\n1,1,2,0\n-----\n";
  EXPECT_EQ(load_error({write("many.csv", many)}, "i9"),
            in_dir("many.csv") +
                ": select: no instance named 'i9'; there are 7: i1, i2, i3, i4, i5, ...");
}

TEST_F(KnapsackReaders, CsvErrorsNameFileAndLine) {
  struct Case {
    const char* text;
    std::string expected;  // after "PATH:"
  };
  const Case cases[] = {
      {"a\nn 2\nc 10\nz 5\n1,5,4,1\n2,6,5\n-----\n",
       "6: expected 4 fields 'i,p,w,x' for item 2 of a, found 3"},
      {"a\nn 2\nc 10\nz 5\n1,5,4,1\n3,6,5,0\n-----\n", "6: expected item 2, found item 3"},
      {"a\nn 2\nc 10\nz 6\n1,5,4,1\n2,6,5,0\n-----\n",
       "4: instance a: z is 6, but its x column is worth 5"},
      {"a\nn 2\nc 8\nz 11\n1,5,4,1\n2,6,5,1\n-----\n",
       "4: instance a: its x column weighs 9, more than the capacity 8"},
      {"a\nn 2\nc 10\nz 5\n1,5,4,1\n2,6,5,0\nb\n",
       "7: expected '-----' after the 2 items of a, found 'b'"},
      {"a\nn 2\nc 10\nz 5\n1,5,4,1\n", "5: instance a ends after 1 of its 2 items"},
      {"a\nn 2\ncap 10\n", "3: expected 'c <capacity>', found 'cap 10'"},
      {"a\nn 2\nc 10\nz 5\n1,5,-4,1\n", "5: item 1 has negative weight -4"},
      {"a\nn 1\nc 10\nz 5\n1,5,4,2\n-----\n", "5: item 1 has x = 2, not 0 or 1"},
      {"a b\nn 1\n", "1: expected an instance name (one word), found 'a b'"},
  };
  for (auto& c : cases) {
    auto path = write("bad.csv", c.text);
    EXPECT_EQ(load_error({path}), in_dir("bad.csv") + ":" + c.expected) << c.text;
  }
}

// ---- OPTIMA.tsv beside the files ----

const char* const kTableHeader =
    "file\tinstance\tclass\tn\tcapacity\tR\toptimum\tsource_of_optimum\n";

TEST_F(KnapsackReaders, OptimaTableInTheParentFolderGivesAKplibOptimum) {
  auto path = write("kplib/n3.kp", "\n3\n9\n\n4 4\n5 5\n3 3\n");
  write("OPTIMA.tsv", std::string(kTableHeader) +
                          "kplib/n3.kp\tn3.kp\tsubset_sum\t3\t9\t1000\t9\tcomputed\n" +
                          "kplib/other.kp\tother.kp\tsubset_sum\t3\t9\t1000\t7\tcomputed\n");
  auto x = load_one(path);
  ASSERT_TRUE(x.known_optimum.has_value());
  EXPECT_EQ(*x.known_optimum, 9);
}

TEST_F(KnapsackReaders, OptimaTableMatchesCsvInstancesByName) {
  auto path = write("two.csv", kTwoInstances);
  write("OPTIMA.tsv",
        std::string(kTableHeader) + "two.csv\tknapPI_1_3_1000_2\tx\t3\t4\t1000\t5\tz\n");
  auto all = load({path});
  EXPECT_EQ(*all[0].known_optimum, 12);  // from the file, no row
  EXPECT_EQ(*all[1].known_optimum, 5);
}

TEST_F(KnapsackReaders, OptimaTableDisagreementsAreErrors) {
  auto path = write("with_x", "3 10\n5 4\n6 5\n7 6\n1 0 1\n");
  auto table =
      write("OPTIMA.tsv", std::string(kTableHeader) + "with_x\twith_x\tx\t3\t10\t1000\t14\tx\n");
  EXPECT_EQ(load_error({path}), in_dir("with_x") +
                                    ": instance with_x: the file's optimum 12 disagrees with " +
                                    table.string() + ":2 (14)");
  write("OPTIMA.tsv", std::string(kTableHeader) + "with_x\twith_x\tx\t4\t10\t1000\t13\tx\n");
  EXPECT_EQ(load_error({path}), table.string() + ":2: says with_x has n 4 and capacity 10, but " +
                                    in_dir("with_x") + " holds n 3 and capacity 10");
  write("OPTIMA.tsv", "file\tinstance\tn\tcapacity\n");
  EXPECT_EQ(load_error({path}), table.string() + ":1: the header has no column 'optimum'");
  write("OPTIMA.tsv", std::string(kTableHeader) + "with_x\twith_x\tx\t3\t10\n");
  EXPECT_EQ(load_error({path}), table.string() + ":2: expected 8 tab-separated fields, found 5");
}

}  // namespace
