// `dpgpu run --set PATH=VALUE` (harness/src/experiment_override.hpp): the YAML it changes
// and the errors it gives.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>

#include "experiment/experiment_override.hpp"
#include "dpgpu/error.hpp"

namespace {

const char* kFile = R"(name: quick
problem: lcs
instances:
  - generator: random
    params: {n: [1024, 2048], alphabet: 4}
solvers:
  - name: gpu.wavefront
    params: {tile_width: 256}
  - cpu.bitparallel
repetitions: 3
)";

YAML::Node applied(std::vector<dpgpu::Override> o) {
  return YAML::Load(dpgpu::apply_overrides(kFile, o, "quick.yaml"));
}

}  // namespace

TEST(ExperimentOverride, SolverParameterByDottedName) {
  auto y = applied({{"solvers.gpu.wavefront.params.tile_width", "[256, 512]"}});
  ASSERT_TRUE(y["solvers"][0]["params"]["tile_width"].IsSequence());
  EXPECT_EQ(y["solvers"][0]["params"]["tile_width"][1].as<int>(), 512);
  EXPECT_EQ(y["solvers"][1].as<std::string>(), "cpu.bitparallel");  // untouched
}

TEST(ExperimentOverride, BareSolverTopLevelAndInstances) {
  auto y = applied({{"solvers.cpu.bitparallel.max.n", "2048"}, {"repetitions", "10"},
                    {"instances.random.params.n", "[4096]"}});
  EXPECT_EQ(y["solvers"][1]["name"].as<std::string>(), "cpu.bitparallel");
  EXPECT_EQ(y["solvers"][1]["max"]["n"].as<int>(), 2048);
  EXPECT_EQ(y["repetitions"].as<int>(), 10);
  EXPECT_EQ(y["instances"][0]["params"]["n"][0].as<int>(), 4096);
  EXPECT_EQ(y["instances"][0]["params"]["alphabet"].as<int>(), 4);
  // The text says which overrides made it.
  auto text = dpgpu::apply_overrides(kFile, {{"repetitions", "10"}}, "quick.yaml");
  EXPECT_NE(text.find("#   --set repetitions=10"), std::string::npos);
}

TEST(ExperimentOverride, ErrorsNameTheOverrideAndWhatIsThere) {
  try {
    applied({{"solvers.gpu.nope.params.x", "1"}});
    FAIL();
  } catch (const dpgpu::InputError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("--set solvers.gpu.nope.params.x=1"), std::string::npos) << m;
    EXPECT_NE(m.find("items: gpu.wavefront, cpu.bitparallel"), std::string::npos) << m;
  }
  EXPECT_THROW(applied({{"nosuchkey.x", "1"}}), dpgpu::InputError);
  EXPECT_THROW(applied({{"repetitions.x", "1"}}), dpgpu::InputError);
  EXPECT_THROW(applied({{"solvers.gpu.wavefront", "1"}}), dpgpu::InputError);
  EXPECT_THROW(applied({{"repetitions", "[1,"}}), dpgpu::InputError);
  EXPECT_THROW(dpgpu::parse_override("tile_width"), dpgpu::InputError);
  EXPECT_THROW(dpgpu::parse_override("=3"), dpgpu::InputError);
  auto o = dpgpu::parse_override("a.b=[1,2]");
  EXPECT_EQ(o.path, "a.b");
  EXPECT_EQ(o.value, "[1,2]");
}

TEST(ExperimentOverride, WrittenBesideTheFile) {
  auto dir = std::filesystem::temp_directory_path() / "dpgpu-override-test";
  std::filesystem::create_directories(dir);
  auto file = dir / "quick.yaml";
  std::ofstream(file) << kFile;
  auto out = dpgpu::write_overridden(file, {"repetitions=7"});
  EXPECT_EQ(out.parent_path(), dir);
  EXPECT_EQ(YAML::LoadFile(out.string())["repetitions"].as<int>(), 7);
  std::filesystem::remove_all(dir);
}
