// Experiment files with long sweeps are read in time proportional to their length (issue 30,
// finding 14: the duplicate checks over seeds and sweep values were quadratic: 400 000 seeds
// took 38-56 s). Uses the fake problem of test_experiment.cpp (same binary).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include "dpgpu/error.hpp"
#include "experiment/experiment.hpp"

namespace fs = std::filesystem;

namespace {

fs::path write_experiment(const std::string& name, const std::string& seeds,
                          const std::string& ns) {
  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("dpgpu-scale-" + std::to_string(rd()));
  fs::create_directories(dir);
  std::ofstream(dir / name)
      << "name: scale\nproblem: fake\ninstances:\n  - generator: gen\n    params: {n: [" << ns
      << "]}\n    seeds: [" << seeds << "]\nsolvers:\n  - cpu.fake\n";
  return dir / name;
}

std::string numbers(std::size_t count, std::size_t first = 0) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? "," : "") + std::to_string(first + i);
  return out;
}

double seconds_to_parse(const fs::path& file) {
  const auto t0 = std::chrono::steady_clock::now();
  dpgpu::parse_experiment(file);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(ExperimentScale, AMillionSeedsAreCheckedInSeconds) {
  const fs::path file = write_experiment("seeds.yaml", numbers(1'000'000), "1");
  const double s = seconds_to_parse(file);
  std::cout << "10^6 seeds parsed and checked in " << s << " s\n";
  EXPECT_LT(s, 20.0);  // quadratic: 5*10^11 comparisons, hours
  fs::remove_all(file.parent_path());
}

TEST(ExperimentScale, ALongSweepIsCheckedInSecondsAndADuplicateIsStillFound) {
  const fs::path file = write_experiment("sweep.yaml", "1", numbers(200'000) + ",17");
  try {
    dpgpu::parse_experiment(file);
    ADD_FAILURE() << "the value 17 twice was not found";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("value 17 appears twice"), std::string::npos) << e.what();
  }
  const fs::path ok = write_experiment("sweep2.yaml", "1", numbers(200'000));
  EXPECT_LT(seconds_to_parse(ok), 20.0);
  fs::remove_all(file.parent_path());
  fs::remove_all(ok.parent_path());
}
