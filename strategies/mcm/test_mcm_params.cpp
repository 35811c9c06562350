// gpu.mcm's policy on the host: the table syntax and its errors (gaps, overlaps, unknown
// kernels, named by range), the rules as `dpgpu check` applies them (parameters, and the
// instance's cost bound), the parameters bound to McmConfig, calibration helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "mcm/generators.hpp"
#include "mcm_config.hpp"
#include "mcm_policy.hpp"

namespace dpgpu::mcm_gpu {
namespace {

TEST(McmTable, ParsesThePaperTable) {
  const auto t = parse_table(
      "2-3668:block:32, 3669-15406:thread:64,15407-15662:block:32,15663-*:blocks:128:8");
  ASSERT_EQ(t.error, "");
  ASSERT_EQ(t.ranges.size(), 4u);
  EXPECT_EQ(setting_for(t.ranges, 2), (Setting{Kernel::block, 32, 1}));
  EXPECT_EQ(setting_for(t.ranges, 3669), (Setting{Kernel::thread, 64, 1}));
  EXPECT_EQ(setting_for(t.ranges, 15406), (Setting{Kernel::thread, 64, 1}));
  EXPECT_EQ(setting_for(t.ranges, 1000000), (Setting{Kernel::blocks, 128, 8}));
  EXPECT_EQ(table_text(t.ranges),
            "2-3668:block:32,3669-15406:thread:64,15407-15662:block:32,15663-*:blocks:128:8");
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
  EXPECT_NO_THROW(s->schema.resolve(
      {{"policy", std::string("table")}, {"table", std::string("2-*:block:64")}}));
  try {
    s->schema.resolve({{"table", std::string("2-9:block:64,11-*:thread:32")}},
                      "exp.yaml:7: solver gpu.mcm");
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

TEST(McmParams, EachParameterBoundToItsField) {
  const SolverEntry* s = Registry::get().solver("mcm", "gpu.mcm");
  ASSERT_NE(s, nullptr);
  const McmConfig d = bind<McmConfig>(*s, s->schema.resolve({}));
  EXPECT_EQ(d.policy, Policy::fixed);
  EXPECT_EQ(fixed_setting(d),
            (Setting{Kernel::thread, 32, 1}));  // blocks only for the blocks kernel
  EXPECT_EQ(d.table, kPaperTable);
  EXPECT_EQ(d.cell, CellBits::automatic);
  const McmConfig c = bind<McmConfig>(*s, s->schema.resolve({{"policy", std::string("calibrate")},
                                                             {"kernel", std::string("blocks")},
                                                             {"threads", std::int64_t{128}},
                                                             {"blocks", std::int64_t{4}},
                                                             {"budget", 0.05},
                                                             {"cell", std::string("64")}}));
  EXPECT_EQ(c.policy, Policy::calibrate);
  EXPECT_EQ(fixed_setting(c), (Setting{Kernel::blocks, 128, 4}));
  EXPECT_DOUBLE_EQ(c.budget, 0.05);
  EXPECT_EQ(c.cell, CellBits::b64);
  // `cell: 32` in YAML is a number; a choice named by a number accepts it.
  EXPECT_EQ(bind<McmConfig>(*s, s->schema.resolve({{"cell", std::int64_t{32}}})).cell,
            CellBits::b32);
  EXPECT_THROW(s->schema.resolve({{"cell", std::int64_t{16}}}), InputError);
  const SolverEntry* t = Registry::get().solver("mcm", "gpu.mcm_tiled");
  ASSERT_NE(t, nullptr);
  const TiledConfig tc = bind<TiledConfig>(
      *t, t->schema.resolve({{"compare", std::string("bits")}, {"split_target", std::int64_t{9}}}));
  EXPECT_EQ(tc.compare, Compare::bits);
  EXPECT_EQ(tc.split_target, 9);
}

AnyInstance erased(::mcm::Instance x, const char* name) {
  return erase_instance<::mcm::Problem>({name, std::move(x), std::nullopt});
}

// What the solver's instance rules say of this case (the planner asks the same before a run).
std::optional<std::string> rules_on(const SolverEntry& s, const Params& p, const AnyInstance& x) {
  for (const auto& rule : s.instance_checks)
    if (auto why = rule(p, x)) return why;
  return std::nullopt;
}

// The instance's cost bound is a rule of the registration, so `dpgpu check` refuses a case
// that a solve would refuse, naming the bound (and 'cell' where the parameter is at fault).
TEST(McmParams, CostBoundIsAnInstanceRule) {
  const SolverEntry* s = Registry::get().solver("mcm", "gpu.mcm");
  const SolverEntry* t = Registry::get().solver("mcm", "gpu.mcm_tiled");
  ASSERT_NE(s, nullptr);
  ASSERT_NE(t, nullptr);
  const Params defaults = s->schema.resolve({}),
               cell32 = s->schema.resolve({{"cell", std::string("32")}});
  const Params tiled = t->schema.resolve({});

  ::mcm::Instance over63;
  over63.p.assign(100, std::int64_t{1} << 22);  // P³ = 2^66
  const auto why = rules_on(*s, defaults, erased(over63, "over63"));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("above 2^63 - 1"), std::string::npos) << *why;
  EXPECT_TRUE(rules_on(*t, tiled, erased(over63, "over63")).has_value());

  ::mcm::Instance over53;
  over53.p.assign(100, std::int64_t{1} << 18);  // P³ = 2^54: fits int64, not exact doubles
  EXPECT_EQ(rules_on(*s, defaults, erased(over53, "over53")), std::nullopt);
  const auto why_tiled = rules_on(*t, tiled, erased(over53, "over53"));
  ASSERT_TRUE(why_tiled.has_value());
  EXPECT_NE(why_tiled->find("above 2^53 (exact doubles)"), std::string::npos) << *why_tiled;

  const auto wide = erased(::mcm::random_instance(100, 2000, 3000, 1), "wide");  // costs above 2^32
  EXPECT_EQ(rules_on(*s, defaults, wide),
            std::nullopt);  // cell auto: 32-bit cells with the 64-bit escape
  const auto why_cell = rules_on(*s, cell32, wide);
  ASSERT_TRUE(why_cell.has_value());
  EXPECT_NE(why_cell->find("'cell' 32: a cost could reach 2^32"), std::string::npos) << *why_cell;
  EXPECT_EQ(rules_on(*s, cell32, erased(::mcm::random_instance(100, 1, 100, 1), "narrow")),
            std::nullopt);
  // The memory estimate follows the cells the solve will use.
  EXPECT_GT(s->memory(wide, defaults).device,
            s->memory(erased(::mcm::random_instance(100, 1, 100, 1), "narrow"), defaults).device);
}

// From calibrate's first candidates, neighbour moves reach every setting of the grid, and
// nothing outside it.
TEST(McmCalibration, NeighboursReachTheWholeGrid) {
  const auto grid = calibration_grid();
  EXPECT_EQ(grid.size(), 26u);
  Calibrator cal(1000, 0.01);
  std::vector<Setting> seen = cal.candidates(), todo = seen;
  while (!todo.empty()) {
    const Setting s = todo.back();
    todo.pop_back();
    for (const auto& t : grid_neighbours(s)) {
      EXPECT_NE(std::find(grid.begin(), grid.end(), t), grid.end()) << to_string(t);
      if (std::find(seen.begin(), seen.end(), t) == seen.end()) {
        seen.push_back(t);
        todo.push_back(t);
      }
    }
  }
  EXPECT_EQ(seen.size(), grid.size());
}

// A synthetic cost model: block:T costs |log2 T - log2 best(l)| extra, the best drifting from
// 32 to 1024 threads; the thread kernel is fast only for l < 100. Calibrate must follow the
// drift, keep the losing launches within its budget, and report a table policy table accepts.
TEST(McmCalibration, FollowsTheDriftWithinItsBudget) {
  const std::int64_t n = 16384;
  auto cost = [&](const Setting& s, std::int64_t l) {
    const double best_log = 5 + 5.0 * double(l) / double(n);  // 32 .. 1024 threads
    const double t = 1e-4 * (1 + std::abs(std::log2(double(s.threads)) - best_log));
    if (s.kernel == Kernel::thread) return l < 100 ? 1e-5 : 1e-3;
    return s.kernel == Kernel::blocks ? t * 1.5 : t;
  };
  for (double budget : {0.01, 0.05}) {
    Calibrator cal(n, budget);
    double total = 0, ideal = 0;
    for (std::int64_t l = 2; l <= n; ++l) {
      double best = 1;
      for (const auto& s : calibration_grid()) best = std::min(best, cost(s, l));
      ideal += best;
      if (cal.sample(l)) {
        std::vector<double> secs;
        for (const auto& s : cal.candidates()) secs.push_back(cost(s, l));
        for (double x : secs) total += x;
        cal.record(l, secs, l + 1);
      } else {
        total += cost(cal.current(), l);
      }
    }
    EXPECT_GT(cal.samples(), 10) << budget;
    EXPECT_LT(cal.flat_samples(), cal.samples() / 4) << budget;  // neighbours here mostly differ
    EXPECT_LE(cal.extra_s(), 1.5 * budget * total)
        << budget;                                            // its estimate lags the growing times
    EXPECT_LE(total, (1 + budget) * 1.15 * ideal) << budget;  // the lag behind the drift
    EXPECT_EQ(cal.current(), (Setting{Kernel::block, 1024, 1})) << budget;
    const auto& used = cal.used();
    ASSERT_GE(used.size(), 3u);
    EXPECT_EQ(used.front().setting, (Setting{Kernel::block, 128, 1}));  // the prior, until l = 64
    EXPECT_EQ(used[1].setting.kernel, Kernel::thread);                  // fast below l = 100 here
    EXPECT_EQ(parse_table(table_text(used)).error, "") << table_text(used);
  }
}

// Launch-bound diagonals (n = 1,024 on the H100): every setting takes about the same 5 µs,
// so choosing cannot gain and each sample is pure cost. Flat samples back off: a handful of
// samples instead of one every 400 diagonals, and the driver queues 10 diagonals (50 µs)
// before it waits for a sample's times.
TEST(McmCalibration, FlatSamplesBackOff) {
  for (std::int64_t n : {1024, 16384}) {
    Calibrator plain(n, 0.01);
    EXPECT_EQ(plain.ahead(), 1) << "no estimate yet";
    int samples = 0;
    for (std::int64_t l = 2; l <= n; ++l) {
      if (!plain.sample(l)) continue;
      std::vector<double> secs;
      for (std::size_t i = 0; i < plain.candidates().size(); ++i)
        secs.push_back(5e-6 * (1 + 0.005 * double(i)));
      plain.record(l, secs, l + 1);
      ++samples;
    }
    EXPECT_EQ(plain.flat_samples(), samples) << n;
    EXPECT_LE(samples, n == 1024 ? 2 : 7) << n;  // 40 at n = 16,384 without the back-off
    EXPECT_EQ(plain.ahead(), 10) << n;
    EXPECT_EQ(plain.current(), (Setting{Kernel::block, 128, 1}))
        << "the current setting is the fastest";
  }
}

// On 4.4 µs diagonals a neighbour timed 0.6 µs faster is within the timer's noise: the
// current setting stays (the H100's n = 1,024 runs switched to block:256 on such a timing and
// lost 10 % of the compute); 2 µs faster is real and wins.
TEST(McmCalibration, KeepsTheCurrentSettingWithinTheTimersNoise) {
  for (double faster : {0.6e-6, 2e-6}) {
    Calibrator cal(1024, 0.01);
    std::int64_t l = 2;
    while (!cal.sample(l)) ++l;
    std::vector<double> secs(cal.candidates().size(), 4.4e-6);
    secs[1] = 4.4e-6 - faster;
    const Setting challenger = cal.candidates()[1];
    cal.record(l, secs, l + 1);
    const Setting kept{Kernel::block, 128, 1};
    EXPECT_EQ(cal.current(), faster < Calibrator::kNoiseS ? kept : challenger) << faster;
    EXPECT_EQ(cal.flat_samples(), faster < Calibrator::kNoiseS ? 1 : 0) << faster;
  }
}

// Chains shorter than 64 diagonals are sampled once, on the last diagonal.
TEST(McmCalibration, ShortChainsSampleTheLastDiagonal) {
  Calibrator cal(7, 0.01);
  for (std::int64_t l = 2; l < 7; ++l) EXPECT_FALSE(cal.sample(l));
  EXPECT_TRUE(cal.sample(7));
  EXPECT_EQ(cal.samples(), 0);
}

}  // namespace
}  // namespace dpgpu::mcm_gpu
