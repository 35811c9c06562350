// Energy, clocks and throttle flags on the host: power integration, RAPL counters on a
// made-up powercap tree, the records' JSON, the rows' columns, the clock settings, and the
// no-GPU path (no NVML: n/a energy, a refused clock lock), end to end through dpgpu_toy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "device/clock_lock.hpp"
#include "device/gpu_monitor.hpp"
#include "device/host_info.hpp"
#include "device/power_sampler.hpp"
#include "device/rapl.hpp"
#include "dpgpu/error.hpp"
#include "e2e_support.hpp"
#include "experiment/clock_request.hpp"
#include "measure/energy_window.hpp"
#include "report/reporter.hpp"
#include "results/record_rows.hpp"

using namespace dpgpu;
namespace fs = std::filesystem;

TEST(Energy, IntegratesPowerSamplesByTrapezoids) {
  std::vector<PowerPoint> p{{0.0, 100}, {1.0, 100}, {2.0, 200}};
  EXPECT_DOUBLE_EQ(integrate_power(p), 100 + 150);
  EXPECT_NEAR(mean_power(p), 400.0 / 3, 1e-12);
  EXPECT_EQ(integrate_power({{0.0, 5}}), 0);
}

TEST(Energy, ReadsRaplPackagesAndCountsAWrap) {
  e2e::TempDir d;
  auto put = [&](const std::string& domain, std::uint64_t uj, std::uint64_t range) {
    fs::create_directories(d.path / domain);
    std::ofstream(d.path / domain / "energy_uj") << uj << "\n";
    std::ofstream(d.path / domain / "max_energy_range_uj") << range << "\n";
  };
  put("intel-rapl:0", 1'000'000, 2'000'000);
  put("intel-rapl:1", 500, 1'000);
  put("intel-rapl:0:0", 7, 100);  // a subzone, inside package 0: not counted again
  auto a = read_rapl(d.path);
  ASSERT_TRUE(a);
  ASSERT_EQ(a->uj.size(), 2u);
  put("intel-rapl:0", 1'500'000, 2'000'000);
  put("intel-rapl:1", 100, 1'000);  // wrapped: 500 -> 1000 -> 100
  auto b = read_rapl(d.path);
  EXPECT_NEAR(rapl_joules(*a, *b), (500'000 + 600) * 1e-6, 1e-12);
  EXPECT_FALSE(read_rapl(d.path / "none"));
}

TEST(Energy, NamesThrottleReasonsAsFlags) {
  EXPECT_EQ(throttle_flags(0x1 | 0x2 | 0x4 | 0x20), "sw_power_cap+sw_thermal");
  EXPECT_TRUE(throttled(0x80));
  EXPECT_FALSE(throttled(0x1 | 0x2)) << "idle and the applications-clocks setting are no slowdown";
  EXPECT_EQ(throttle_flags(0), "");
}

namespace {

EnergyRecord sample_energy() {
  EnergyRecord e;
  e.method = "nvml_counter";
  e.joules = 50, e.window_s = 1.25, e.solve_s = 1.0, e.solves = 100;
  e.idle_power_w = 70.5, e.sampled_joules = 51;
  e.sm_min_mhz = 1755, e.sm_max_mhz = 1980, e.memory_min_mhz = e.memory_max_mhz = 2619;
  e.reasons = 0x4, e.samples = 120;
  return e;
}

CaseRecord gpu_record() {
  CaseRecord rec;
  rec.spec.id = "inst/gpu.x";
  rec.spec.problem = "p";
  rec.spec.solver = "gpu.x";
  rec.spec.backend = Backend::Gpu;
  rec.spec.work = 1e6;
  for (int i = 0; i < 3; ++i) {
    RepRecord r;
    r.rep = i;
    r.time_s = 0.01;
    rec.result.reps.push_back(r);
  }
  rec.result.energy = sample_energy();
  return rec;
}

}  // namespace

TEST(Energy, RecordSurvivesJson) {
  CaseResult r = gpu_record().result;
  CaseResult back = case_result_from_json(nlohmann::json::parse(to_json(r).dump()));
  ASSERT_TRUE(back.energy);
  EXPECT_EQ(to_json(*back.energy), to_json(sample_energy()));
  EXPECT_FALSE(case_result_from_json(to_json(CaseResult{})).energy)
      << "journals from before energy";
}

TEST(Energy, RowsCarryEnergyPowerWorkPerJouleClocksAndFlags) {
  const CaseRecord rec = gpu_record();
  const Records records{&rec};
  auto rows = run_rows(records);
  ASSERT_EQ(rows.size(), 3u);
  for (auto& row : rows) {
    EXPECT_EQ(row.at("energy_method"), "nvml_counter");
    EXPECT_EQ(row.at("energy_j"), "0.5");  // 50 J over 100 solves
    EXPECT_EQ(row.at("power_w"), "40");    // 50 J over 1.25 s
    EXPECT_EQ(row.at("work_per_joule"), "2e+06");
    EXPECT_EQ(row.at("idle_power_w"), "70.5");
    EXPECT_EQ(row.at("energy_solves"), "100");
    EXPECT_EQ(row.at("gpu.sm_clock_min_mhz"), "1755");
    EXPECT_EQ(row.at("gpu.sm_clock_max_mhz"), "1980");
    EXPECT_EQ(row.at("gpu.mem_clock_max_mhz"), "2619");
    EXPECT_EQ(row.at("gpu.throttle_flags"), "sw_power_cap");
    EXPECT_EQ(row.at("gpu.throttled"), "true");
  }
  auto summary = summary_rows(records);
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].at("energy_j"), "0.5");
  EXPECT_EQ(summary[0].at("work_per_joule"), "2e+06");
  EXPECT_EQ(summary[0].at("gpu.throttled"), "true");
  auto bench = benchmark_entries(records);
  EXPECT_DOUBLE_EQ(bench[0].at("energy_j").get<double>(), 0.5);
}

// A case over several GPUs (`gpus`): its energy is the sum of its cards' counters, any card
// without one makes the sum unknown, and the row says how many cards were summed.
TEST(Energy, ACaseOverSeveralCardsSumsTheirCountersAndSaysHowMany) {
  using Mj = std::optional<unsigned long long>;
  EXPECT_EQ(sum_of_cards(std::vector<Mj>{Mj(1000), Mj(2500)}), Mj(3500));
  EXPECT_EQ(sum_of_cards(std::vector<Mj>{Mj(1000), std::nullopt}), std::nullopt);
  EXPECT_EQ(sum_of_cards(std::vector<Mj>{}), std::nullopt);
  EXPECT_EQ(cards_in_use(1), 1);
  EXPECT_GE(cards_in_use(4), 1);
  EXPECT_LE(cards_in_use(4), std::max(1, cuda_device_count()));

  CaseRecord rec = gpu_record();
  const Records one{&rec};
  EXPECT_EQ(summary_rows(one)[0].count("energy_cards"), 0u) << "one card: no column";
  rec.result.energy->cards = 2;
  const Records two{&rec};
  for (auto& row : run_rows(two)) EXPECT_EQ(row.at("energy_cards"), "2");
  CaseResult back = case_result_from_json(nlohmann::json::parse(to_json(rec.result).dump()));
  EXPECT_EQ(back.energy->cards, 2);
}

TEST(Energy, ClockSettings) {
  EXPECT_EQ(clock_value_error("sm", "base"), "");
  EXPECT_EQ(clock_value_error("sm", "1500"), "");
  EXPECT_EQ(clock_value_error("memory", "max"), "");
  EXPECT_NE(clock_value_error("memory", "base"), "");
  EXPECT_NE(clock_value_error("sm", "fast"), "");
  EXPECT_NE(clock_value_error("sm", "0"), "");
  EXPECT_NE(clock_value_error("core", "max"), "");
  EXPECT_EQ(parse_lock_clocks("base").str(), "sm=base");
  EXPECT_EQ(parse_lock_clocks("sm=1500,memory=max").str(), "sm=1500,memory=max");
  EXPECT_THROW(parse_lock_clocks("memory=base"), InputError);
  EXPECT_THROW(parse_lock_clocks(""), InputError);
}

// A CPU window: RAPL where readable, else n/a with the reason; the solves are counted.
TEST(Energy, CpuWindowUsesRaplOrSaysWhyNot) {
  EnergyWindow w(Backend::Cpu, std::nullopt);
  const EnergyRecord e = w.close(3, 0.0);
  EXPECT_EQ(e.solves, 3);
  if (read_rapl()) {
    EXPECT_EQ(e.method, "rapl");
    EXPECT_GE(e.joules, 0);
  } else {
    EXPECT_EQ(e.method, "n/a");
    EXPECT_NE(e.note.find("RAPL"), std::string::npos);
  }
}

TEST(Energy, WithoutAGpuEnergyIsNaAndLockingIsRefused) {
  if (sample_gpu()) GTEST_SKIP() << "a GPU is present: the GPU tests cover it";
  EnergyWindow w(Backend::Gpu, std::nullopt);
  const EnergyRecord e = w.close(1, 0.0);
  EXPECT_EQ(e.method, "n/a");
  EXPECT_FALSE(e.note.empty());
  EXPECT_THROW(ClockLock({"base", ""}, ""), InputError);
  EXPECT_EQ(check_clocks_on_device({"1500", ""}), "") << "nothing to check against";
}

namespace {

std::string toy_experiment(const std::string& extra) {
  return "name: toyenergy\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: 5}\n"
         "solvers:\n  - name: cpu.right\nrepetitions: 2\nwarmup: 0\ntimeout_s: 5\n" +
         extra;
}

}  // namespace

// Every row says how its energy was measured; the window held at least the timed solves.
TEST(EnergyToy, RowsSayTheMethodAndTheWindowIsExtended) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_experiment("energy_window_s: 0.2\n"));
  auto r = e2e::run(std::string(DPGPU_TOY_BIN) + " run " + yaml.string() + " --out " +
                    (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto runs = e2e::read_csv(d.path / "out/runs.csv");
  ASSERT_EQ(runs.size(), 2u);
  const bool rapl = read_rapl().has_value();
  for (auto& row : runs) {
    EXPECT_EQ(row.at("energy_method"), rapl ? "rapl" : "n/a");
    if (rapl) {
      EXPECT_GE(std::stoi(row.at("energy_solves")), 2);
    }
  }
}

TEST(EnergyToy, CheckRejectsABadClockAndRunRefusesALockItCannotTake) {
  e2e::TempDir d;
  auto bad = d.write("bad.yaml", toy_experiment("clocks: {sm: fast}\n"));
  auto r = e2e::run(std::string(DPGPU_TOY_BIN) + " check " + bad.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("clocks.sm"), std::string::npos) << r.output;
  auto window = d.write("w.yaml", toy_experiment("energy_window_s: -1\n"));
  EXPECT_EQ(e2e::run(std::string(DPGPU_TOY_BIN) + " check " + window.string()).code, 2);
  auto good = d.write("good.yaml", toy_experiment(""));
  r = e2e::run(std::string(DPGPU_TOY_BIN) + " run " + good.string() + " --lock-clocks fast --out " +
               (d.path / "fast").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--lock-clocks"), std::string::npos) << r.output;
  if (sample_gpu()) GTEST_SKIP() << "a GPU is present: locking may succeed here";
  auto base = d.write("base.yaml", toy_experiment("clocks: {sm: base}\n"));
  r = e2e::run(std::string(DPGPU_TOY_BIN) + " run " + base.string() + " --out " +
               (d.path / "out").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("clocks:"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d.path / "out/runs.csv")) << "refused before anything ran";
}
