// Every TSPLIB file of the shared data folder (skipped where it is absent).
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>

#include "tsp/tsp.hpp"

namespace {

namespace fs = std::filesystem;

fs::path shared_tsplib() { return dpgpu::shared_data_dir("tsplib"); }

// The optimum lists as published with the files ("name : value" / "name: value"), read
// here on their own, so that OPTIMA.tsv and the reader's lookup are both checked.
std::map<std::string, std::int64_t> published_optima(const fs::path& dir) {
  std::map<std::string, std::int64_t> out;
  const std::regex row(R"(^\s*(\w+)\s*:\s*(\d+))");
  for (auto file : {"solutions_symmetric.txt", "solutions_atsp.txt"}) {
    std::ifstream in(dir / file);
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_search(line, m, row)) out[m[1]] = std::stoll(m[2]);
  }
  out["kro124p"] = out["kro124"];  // listed under its old name (SOURCES.md)
  return out;
}

dpgpu::Loaded<tsp::Instance> load(const fs::path& path) {
  return tsp::Problem::load({{path}, ""}).at(0);
}

TEST(TspSharedFiles, EveryFileParsesWithItsPublishedOptimum) {
  auto dir = shared_tsplib();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  const auto published = published_optima(dir);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto ext = entry.path().extension();
    if (ext != ".tsp" && ext != ".atsp") continue;
    ++files;
    SCOPED_TRACE(entry.path().filename().string());
    auto loaded = load(entry.path());
    EXPECT_EQ(loaded.name, entry.path().stem().string());
    EXPECT_GT(loaded.instance.n, 1);
    ASSERT_TRUE(loaded.known_optimum.has_value());
    ASSERT_EQ(published.count(loaded.name), 1u);
    EXPECT_EQ(*loaded.known_optimum, published.at(loaded.name));
    if (ext == ".tsp") {
      EXPECT_TRUE(loaded.instance.symmetric);
    }
    EXPECT_FALSE(loaded.instance.comment.empty());
  }
  EXPECT_EQ(files, 30);
}

TEST(TspSharedFiles, SpotChecksAgainstTheRawNumbers) {
  auto dir = shared_tsplib();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  // gr17, LOWER_DIAG_ROW "0 633 0 257 390 0 ...": d(2,1) = 633, d(3,2) = 390.
  auto gr17 = load(dir / "gr17.tsp").instance;
  EXPECT_EQ(gr17.n, 17);
  EXPECT_EQ(gr17.arc(1, 0), 633);
  EXPECT_EQ(gr17.arc(0, 1), 633);
  EXPECT_EQ(gr17.arc(2, 1), 390);
  // bayg29, UPPER_ROW starting " 97 205 139": d(1,2) = 97, d(1,4) = 139.
  auto bayg29 = load(dir / "bayg29.tsp").instance;
  EXPECT_EQ(bayg29.arc(0, 1), 97);
  EXPECT_EQ(bayg29.arc(3, 0), 139);
  // br17, FULL_MATRIX: diagonal 9999 kept, d(1,12) = 0.
  auto br17 = load(dir / "br17.atsp").instance;
  EXPECT_EQ(br17.arc(0, 0), 9999);
  EXPECT_EQ(br17.arc(0, 11), 0);
  EXPECT_EQ(br17.arc(1, 0), 3);
  // att48 cities 1 (6734, 1453) and 2 (2233, 10): ATT is the ceiling of sqrt(s/10), here
  // s = 4501² + 1443² = 22341250: the least k with 10k² >= s.
  auto att48 = load(dir / "att48.tsp").instance;
  std::int64_t k = 0;
  while (10 * k * k < 22341250) ++k;
  EXPECT_EQ(att48.arc(0, 1), k);
  EXPECT_EQ(att48.edge_weight_type, "ATT");
  // burma14 cities 1 and 2 (GEO): TSPLIB's 153; ulysses16 1 and 2: 509.
  EXPECT_EQ(load(dir / "burma14.tsp").instance.arc(0, 1), 153);
  EXPECT_EQ(load(dir / "ulysses16.tsp").instance.arc(0, 1), 509);
  // eil51 cities 1 (37, 52) and 2 (49, 49): sqrt(153) = 12.37 → 12.
  EXPECT_EQ(load(dir / "eil51.tsp").instance.arc(0, 1), 12);
}

}  // namespace
