#include <gtest/gtest.h>

#include "records/csv_table.hpp"
#include "e2e_support.hpp"

using dpgpu::CsvRow;

TEST(CsvEscape, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(dpgpu::csv_escape("plain"), "plain");
  EXPECT_EQ(dpgpu::csv_escape("a,b"), "\"a,b\"");
  EXPECT_EQ(dpgpu::csv_escape("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(dpgpu::csv_escape("two\nlines"), "\"two\nlines\"");
}

TEST(CsvParse, RoundTripsAwkwardFields) {
  std::vector<std::string> fields{"a,b", "q\"uote", "multi\nline", "", "x"};
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i)
    line += (i ? "," : "") + dpgpu::csv_escape(fields[i]);
  auto rows = dpgpu::csv_parse(line + "\nsecond,row,,,\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], fields);
  EXPECT_EQ(rows[1].size(), 5u);
}

TEST(CsvParse, RejectsUnterminatedQuote) {
  EXPECT_THROW(dpgpu::csv_parse("\"open,field\n"), std::runtime_error);
}

TEST(CsvTable, NewColumnRewritesFileWhole) {
  e2e::TempDir dir;
  auto path = dir.path / "runs.csv";
  dpgpu::CsvTable t(path, {"case_id", "status"});
  t.append({{"case_id", "a"}, {"status", "ok"}, {"s.block", "128"}});
  t.append({{"case_id", "b"}, {"status", "ok"}, {"s.block", "256"}});
  t.append({{"case_id", "c"}, {"status", "error"}, {"c.launches", "3"}, {"i.n", "5"}});
  auto rows = e2e::read_csv(path);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("s.block"), "128");
  EXPECT_EQ(rows[2].at("c.launches"), "3");
  EXPECT_FALSE(rows[0].count("c.launches"));
  // Leading columns first, then instance, solver, counter groups.
  auto header = e2e::slurp(path).substr(0, e2e::slurp(path).find('\n'));
  EXPECT_EQ(header, "case_id,status,i.n,s.block,c.launches");
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
}

TEST(CsvTable, LoadRejectsRaggedRows) {
  e2e::TempDir dir;
  auto path = dir.write("bad.csv", "a,b\n1,2\n3\n");
  dpgpu::CsvTable t(path, {});
  try {
    t.load();
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:3"), std::string::npos) << e.what();
  }
}
