// `dpgpu run --set PATH=VALUE` (harness/src/experiment_override.hpp): the YAML it changes
// and the errors it gives.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "dpgpu/error.hpp"
#include "experiment/experiment.hpp"
#include "experiment/experiment_override.hpp"

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
  auto y = applied({{"solvers.cpu.bitparallel.max.n", "2048"},
                    {"repetitions", "10"},
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

// Issue 30, finding 21: the overrides change the parsed file in memory. An error in a value
// names the flag, not a temporary file's line:col, and nothing is written beside the file.
TEST(ExperimentOverride, AppliedInMemoryAndErrorsNameTheFlag) {
  auto dir = std::filesystem::temp_directory_path() /
             ("dpgpu-override-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto file = dir / "small.yaml";
  std::ofstream(file)
      << "problem: fake\ninstances: [{generator: gen, params: {n: 5}}]\nsolvers: [cpu.fake]\n";
  auto error = [&](std::vector<dpgpu::Override> o) -> std::string {
    try {
      dpgpu::parse_experiment(file, o);
    } catch (const dpgpu::InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string reps = error({{"repetitions", "0"}});
  EXPECT_EQ(reps.rfind("--set repetitions=0: ", 0), 0u) << reps;
  const std::string n = error({{"instances.gen.params.n", "[5, -1]"}});
  EXPECT_EQ(n.rfind("--set instances.gen.params.n=[5, -1]: ", 0), 0u) << n;
  EXPECT_EQ(n.find(".set-"), std::string::npos) << n;
  const std::string key =
      error({{"solvers.cpu.fake.params.nope", "1"}});  // a new key on a bare solver name
  EXPECT_EQ(key.rfind("--set solvers.cpu.fake.params.nope=1: ", 0), 0u) << key;
  // A mistake of the file itself still names the file's line, past the overrides.
  std::ofstream(file) << "problem: fake\ninstances: [{generator: gen, params: {n: 5}}]\nsolvers: "
                         "[cpu.fake]\nwarmup: -1\n";
  const std::string own = error({{"repetitions", "3"}});
  EXPECT_EQ(own.rfind(file.string() + ":4:", 0), 0u) << own;
  std::ofstream(file)
      << "problem: fake\ninstances: [{generator: gen, params: {n: 5}}]\nsolvers: [cpu.fake]\n";
  auto e =
      dpgpu::parse_experiment(file, {{"repetitions", "7"}, {"instances.gen.params.n", "[6, 7]"}});
  EXPECT_EQ(e.repetitions, 7);
  EXPECT_EQ(e.instances.at(0).params.at(0).values.size(), 2u);
  EXPECT_NE(e.source_text.find("#   --set repetitions=7"), std::string::npos);
  std::size_t entries = 0;
  for ([[maybe_unused]] auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u) << "only the experiment file: nothing written beside it";
  std::filesystem::remove_all(dir);
}

// Issue 35, item 16: a path two items match is an error listing them (never the first one
// silently); an item may be named by its index; parts are named by their problem.
TEST(ExperimentOverride, AnAmbiguousPathIsAnErrorListingTheMatches) {
  const char* two = R"(name: two
problem: lcs
instances:
  - generator: random
    params: {n: 1024}
  - generator: random
    params: {n: 2048}
solvers:
  - name: cpu.omp_wavefront
    params: {threads: 1}
  - name: cpu.omp_wavefront
    params: {threads: 2}
)";
  for (const char* path :
       {"instances.random.params.n", "solvers.cpu.omp_wavefront.params.threads"}) {
    try {
      dpgpu::apply_overrides(two, {{path, "7"}}, "two.yaml");
      ADD_FAILURE() << path << " changed one item silently";
    } catch (const dpgpu::InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(std::string("--set ") + path + "=7: ", 0), 0u) << m;
      EXPECT_NE(m.find("is ambiguous: 2 items"), std::string::npos) << m;
      EXPECT_NE(m.find("item 0 (line"), std::string::npos) << m;
      EXPECT_NE(m.find("item 1 (line"), std::string::npos) << m;
    }
  }
  auto y = YAML::Load(dpgpu::apply_overrides(two, {{"instances.1.params.n", "4096"}}, "two.yaml"));
  EXPECT_EQ(y["instances"][0]["params"]["n"].as<int>(), 1024);
  EXPECT_EQ(y["instances"][1]["params"]["n"].as<int>(), 4096);
}

TEST(ExperimentOverride, PartsAreAddressedByTheirProblem) {
  const char* parts = R"(name: parts
parts:
  - problem: lcs
    instances: [{generator: random, params: {n: 64}}]
    solvers: [cpu.linear]
  - problem: knapsack
    instances: [{generator: paper2014, params: {n: 10}}]
    solvers: [cpu.dp]
)";
  auto y = YAML::Load(dpgpu::apply_overrides(
      parts, {{"parts.knapsack.instances.paper2014.params.n", "[20, 40]"}}, "parts.yaml"));
  EXPECT_EQ(y["parts"][1]["instances"][0]["params"]["n"][1].as<int>(), 40);
  EXPECT_EQ(y["parts"][0]["instances"][0]["params"]["n"].as<int>(), 64);
}
