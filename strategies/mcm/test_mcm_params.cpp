// gpu.mcm's policy on the host: the table syntax and its errors (gaps, overlaps, unknown
// kernels, named by range), the rules as `dpgpu check` applies them, calibration helpers.
#include <gtest/gtest.h>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "mcm_policy.hpp"

namespace dpgpu::mcm_gpu {
namespace {

TEST(McmTable, ParsesThePaperTable) {
  const auto t = parse_table("2-3668:block:32, 3669-15406:thread:64,15407-15662:block:32,15663-*:blocks:128:8");
  ASSERT_EQ(t.error, "");
  ASSERT_EQ(t.ranges.size(), 4u);
  EXPECT_EQ(setting_for(t.ranges, 2), (Setting{Kernel::block, 32, 1}));
  EXPECT_EQ(setting_for(t.ranges, 3669), (Setting{Kernel::thread, 64, 1}));
  EXPECT_EQ(setting_for(t.ranges, 15406), (Setting{Kernel::thread, 64, 1}));
  EXPECT_EQ(setting_for(t.ranges, 1000000), (Setting{Kernel::blocks, 128, 8}));
  EXPECT_EQ(table_text(t.ranges), "2-3668:block:32,3669-15406:thread:64,15407-15662:block:32,15663-*:blocks:128:8");
  EXPECT_EQ(parse_table("2-*:thread:32").ranges.size(), 1u);
}

void expect_error(const std::string& table, const std::string& part) {
  const auto t = parse_table(table);
  EXPECT_TRUE(t.ranges.empty()) << table;
  EXPECT_NE(t.error.find(part), std::string::npos) << table << " -> " << t.error;
}

TEST(McmTable, ErrorsNameTheRange) {
  expect_error("3-*:thread:32", "range 1 '3-*:thread:32': leaves a gap: l = 2..2");
  expect_error("2-10:thread:32,12-*:block:64", "range 2 '12-*:block:64': leaves a gap: l = 11..11");
  expect_error("2-10:thread:32,9-*:block:64", "range 2 '9-*:block:64': overlaps");
  expect_error("2-10:warp:32,11-*:block:64", "unknown kernel 'warp'");
  expect_error("2-10:thread:32", "must end with '*'");
  expect_error("2-*:thread:32,5-*:block:32", "follows the open range");
  expect_error("2-*:thread:48", "multiple of 32");
  expect_error("2-*:blocks:32", "needs BLOCKS");
  expect_error("2-*:thread:32:4", "only for the blocks kernel");
  expect_error("2-1:thread:32,2-*:thread:32", "TO is below FROM");
  expect_error("x-*:thread:32", "integers");
}

TEST(McmTable, RulesRejectBadParametersAtResolve) {
  const SolverEntry* s = Registry::get().solver("mcm", "gpu.mcm");
  ASSERT_NE(s, nullptr);
  EXPECT_NO_THROW(s->schema.resolve({{"policy", std::string("table")}, {"table", std::string("2-*:block:64")}}));
  try {
    s->schema.resolve({{"table", std::string("2-9:block:64,11-*:thread:32")}}, "exp.yaml:7: solver gpu.mcm");
    FAIL();
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("exp.yaml:7"), std::string::npos) << m;
    EXPECT_NE(m.find("parameter 'table'"), std::string::npos) << m;
    EXPECT_NE(m.find("gap"), std::string::npos) << m;
  }
  EXPECT_THROW(s->schema.resolve({{"threads", std::int64_t{48}}}), InputError);
  EXPECT_NO_THROW(s->schema.resolve({{"threads", std::int64_t{96}}}));
  EXPECT_NE(Registry::get().solver("mcm", "gpu.mcm_tiled"), nullptr);
}

TEST(McmCalibration, SamplesAndRanges) {
  EXPECT_EQ(sample_diagonals(2, 16), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(sample_diagonals(5, 16), (std::vector<std::int64_t>{2, 3, 4, 5}));
  const auto s = sample_diagonals(16384, 16);
  ASSERT_EQ(s.size(), 16u);
  EXPECT_EQ(s.front(), 2);
  EXPECT_EQ(s.back(), 16384);
  const Setting A{Kernel::block, 32, 1}, B{Kernel::thread, 32, 1}, C{Kernel::blocks, 64, 8};
  const auto r = ranges_from_samples({2, 100, 200, 300, 400}, {A, A, B, B, C});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(table_text(r), "2-150:block:32,151-350:thread:32,351-*:blocks:64:8");
  EXPECT_EQ(parse_table(table_text(r)).error, "");  // what calibrate reports can be fed back as a table
  EXPECT_EQ(calibration_grid().size(), 26u);
}

}  // namespace
}  // namespace dpgpu::mcm_gpu
