// Noise verdicts (harness/src/noise.hpp) and what context.json records about the host.
#include <gtest/gtest.h>

#include <cmath>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "device/host_info.hpp"
#include "records/human_format.hpp"
#include "measure/noise.hpp"

TEST(NoiseVerdict, NoisyAboveTheThresholdOnly) {
  auto steady = dpgpu::noise_verdict(0.01, 0.99, 1.02, 1.0, 5);
  EXPECT_TRUE(steady.measured);
  EXPECT_FALSE(steady.noisy);
  EXPECT_NEAR(steady.spread, 0.03, 1e-12);
  EXPECT_EQ(dpgpu::noise_note(steady, 0.99, 1.02), "");

  auto noisy = dpgpu::noise_verdict(0.3, 0.013, 1.96, 0.1, 5);
  EXPECT_TRUE(noisy.noisy);
  EXPECT_EQ(dpgpu::noise_note(noisy, 0.013, 1.96), "noisy: rsd 30.0% > 5%, spread 13 ms to 1.96 s");
  // The experiment's max_noise replaces the default.
  EXPECT_FALSE(dpgpu::noise_verdict(0.3, 0.013, 1.96, 0.1, 5, 0.5).noisy);
  EXPECT_TRUE(dpgpu::noise_verdict(0.03, 1, 1.1, 1, 5, 0.02).noisy);
  EXPECT_FALSE(dpgpu::noise_verdict(0.05, 1, 1.1, 1, 5).noisy);  // at the threshold: not above it
}

TEST(NoiseVerdict, NoVerdictWithoutTwoRepetitions) {
  auto one = dpgpu::noise_verdict(0.9, 1, 2, 1.5, 1);
  EXPECT_FALSE(one.measured);
  EXPECT_FALSE(one.noisy);
  EXPECT_FALSE(dpgpu::noise_verdict(std::nan(""), 1, 2, 1.5, 5).noisy);
}

TEST(HostFacts, RecordWhatExplainsNoise) {
  char arg0[] = "dpgpu", arg1[] = "run", arg2[] = "--repetitions", arg3[] = "3";
  char* argv[] = {arg0, arg1, arg2, arg3};
  dpgpu::set_command_line(4, argv);
  auto facts = dpgpu::host_facts();
  EXPECT_EQ(facts["command_line"], nlohmann::json({"dpgpu", "run", "--repetitions", "3"}));
  EXPECT_TRUE(facts.contains("cpu_governor"));
  EXPECT_GT(facts["memory_total_bytes"].get<long long>(), 0);
  EXPECT_GT(facts["memory_available_bytes"].get<long long>(), 0);
  ASSERT_TRUE(facts["load_start"].contains("loadavg"));
  EXPECT_EQ(facts["load_start"]["loadavg"].size(), 3u);
  EXPECT_TRUE(facts["load_start"]["busy_processes"].is_array());
}

TEST(HostFacts, BusyProcessesIncludeASpinningThreadOfAnother) {
  // A child process that spins for a second shows up among the busy processes.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
    volatile unsigned long spin = 0;
    while (std::chrono::steady_clock::now() < end) ++spin;
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // A low bar: on a loaded machine (ctest -j, other builds) the spinner gets a share only.
  auto load = dpgpu::host_load(0.5);
  int status = 0;
  waitpid(child, &status, 0);
  bool seen = false;
  for (auto& p : load["busy_processes"]) seen |= p["pid"].get<int>() == child;
  EXPECT_TRUE(seen) << load.dump();
}

TEST(HostFacts, GitCommitIsAShaOrSaysWhereItCameFrom) {
  std::string c = dpgpu::git_commit();
  EXPECT_TRUE(c == "unknown" || c.size() >= 40) << c;
  EXPECT_NE(c, "HEAD");
}

TEST(HumanFormat, SecondsWithAUnitNotAnExponent) {
  EXPECT_EQ(dpgpu::format_seconds(10.04), "10.04 s");
  EXPECT_EQ(dpgpu::format_seconds(10040.0), "10040 s");
  EXPECT_EQ(dpgpu::format_seconds(0.523), "523 ms");
  EXPECT_EQ(dpgpu::format_seconds(1.23e-5), "12.3 \u00b5s");
  EXPECT_EQ(dpgpu::format_seconds(8.5e-8), "85 ns");
  EXPECT_EQ(dpgpu::format_seconds(0.0), "0 s");
  // Rounded before the unit is chosen: never "1000 ms" or "1000 µs".
  EXPECT_EQ(dpgpu::format_seconds(0.99996), "1 s");
  EXPECT_EQ(dpgpu::format_seconds(0.00099996), "1 ms");
  EXPECT_EQ(dpgpu::format_seconds(999.96), "1000 s");
  EXPECT_EQ(dpgpu::format_seconds(12345.6), "12346 s");
  EXPECT_EQ(dpgpu::format_seconds(-0.002), "-2 ms");
}

TEST(HumanFormat, CountsWithAnSiPrefix) {
  EXPECT_EQ(dpgpu::format_count(16777216), "16.8 M");
  EXPECT_EQ(dpgpu::format_count(999600), "1 M");
  EXPECT_EQ(dpgpu::format_count(1024), "1.02 k");
  EXPECT_EQ(dpgpu::format_count(512), "512");
  EXPECT_EQ(dpgpu::format_count(0), "0");
  EXPECT_EQ(dpgpu::format_count(3.4e12), "3.4 T");
}
