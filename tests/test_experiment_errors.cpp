// Experiment files: every mistake is an InputError that starts with "FILE:LINE:COLUMN:"
// of the offending node and names the key, and the allowed values or known names where
// there are some. Uses the fake problem registered in test_experiment.cpp: problem "fake",
// generators "gen" (n: int in [0, 1e6], alpha: real in [0, 1]) and "flat", solvers
// cpu.fake (threads, mode: fast|slow), gpu.fake (block: [32, 1024], offload) and
// gpu.absent (unavailable).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "dpgpu/error.hpp"
#include "experiment/experiment.hpp"

namespace fs = std::filesystem;
using namespace dpgpu;

namespace {

struct Case {
  std::string name;
  std::string yaml;
  std::string at;                  // "LINE:COLUMN" the message must start with, after the file
  std::vector<std::string> parts;  // each must appear; "{dir}" is the experiment's folder
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

// A valid experiment, to which a case appends or in which it replaces one line.
const std::string kProblem = "problem: fake\n";
const std::string kInstances = "instances: [{generator: gen}]\n";
const std::string kSolvers = "solvers: [cpu.fake]\n";
const std::string kValid = kProblem + kInstances + kSolvers;

std::string with_instances(const std::string& block) {
  return kProblem + "instances:\n" + block + kSolvers;
}
std::string with_solvers(const std::string& block) {
  return kProblem + kInstances + "solvers:\n" + block;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

class ExperimentErrors : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("dpgpu_errors_" + GetParam().name);
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "folder");
    std::ofstream(dir_ / "present.txt") << "x";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(ExperimentErrors, NamesPlaceAndKey) {
  const Case& c = GetParam();
  fs::path file = dir_ / "exp.yaml";
  std::ofstream(file) << c.yaml;
  try {
    parse_experiment(file);
    FAIL() << "no error for:\n" << c.yaml;
  } catch (const InputError& e) {
    std::string message = e.what();
    std::string prefix = file.string() + ":" + c.at + ":";
    EXPECT_EQ(message.rfind(prefix, 0), 0u)
        << "expected prefix " << prefix << "\nmessage: " << message;
    for (const std::string& part : c.parts)
      EXPECT_NE(message.find(replace_all(part, "{dir}", dir_.string())), std::string::npos)
          << "missing \"" << part << "\"\nmessage: " << message;
  }
}

const Case kCases[] = {
    // YAML itself
    {"YamlSyntax", "problem: fake\n  bad: indent\n", "2:6", {"illegal map value"}},
    {"UnclosedFlow",
     "problem: fake\ninstances: [{generator: gen}\nsolvers: [cpu.fake]\n",
     "3:1",
     {"end of sequence flow not found"}},
    {"EmptyFile", "# nothing here\n", "1:1", {"empty", "problem, instances and solvers"}},
    {"NotAMap", "- problem: fake\n", "1:1", {"expected a map", "a list"}},
    {"DuplicateKey",
     kValid + "problem: fake\n",
     "4:1",
     {"problem: key given twice (first at line 1)"}},

    // top level
    {"UnknownTopLevelKey",
     kValid + "repetition: 3\n",
     "4:1",
     {"unknown key 'repetition'",
      "(allowed: name, description, problem, instances, solvers, repetitions, warmup, "
      "max_repetitions, max_noise, "
      "cold, series, timeout_s, isolate, profile, plot, parts, energy_window_s, clocks, claims, "
      "tiers)"}},
    {"MaxRepetitionsBelowRepetitions",
     kValid + "repetitions: 5\nmax_repetitions: 3\n",
     "5:18",
     {"max_repetitions", "must be at least repetitions (5), got 3"}},
    {"MaxNoiseNotPositive",
     kValid + "max_noise: 0\n",
     "4:12",
     {"max_noise", "positive relative standard deviation"}},
    {"SeriesNotABool", kValid + "series: 1\n", "4:9", {"series", "expected true or false"}},
    {"PartsBesideProblem",
     kProblem + "parts:\n  - {problem: fake, instances: [{generator: gen}], solvers: [cpu.fake]}\n",
     "1:10",
     {"problem", "belongs inside each item of parts"}},
    {"PartUnknownKey",
     "parts:\n  - problem: fake\n    instances: [{generator: gen}]\n    solvers: [cpu.fake]\n    "
     "repetitions: 3\n",
     "5:5",
     {"unknown key 'repetitions' in parts[0]",
      "(allowed: problem, instances, solvers, description)"}},
    {"PartMissingSolvers",
     "parts:\n  - problem: fake\n    instances: [{generator: gen}]\n",
     "2:5",
     {"parts[0]: missing required key 'solvers'"}},
    {"PartUnknownSolver",
     "parts:\n  - problem: fake\n    instances: [{generator: gen}]\n    solvers: [cpu.nope]\n",
     "4:15",
     {"parts[0].solvers[0]", "unknown solver 'cpu.nope'"}},
    {"PartsEmpty", "parts: []\n", "1:8", {"parts: the list is empty"}},
    {"ColdNotABool", kValid + "cold: yes\n", "4:7", {"cold", "expected true or false"}},
    {"MissingProblem", kInstances + kSolvers, "1:1", {"missing required key 'problem'"}},
    {"MissingInstances", kProblem + kSolvers, "1:1", {"missing required key 'instances'"}},
    {"MissingSolvers", kProblem + kInstances, "1:1", {"missing required key 'solvers'"}},
    {"EmptyInstances",
     kProblem + "instances: []\n" + kSolvers,
     "2:12",
     {"instances: the list is empty"}},
    {"SolversNotAList",
     kProblem + kInstances + "solvers: cpu.fake\n",
     "3:10",
     {"solvers: expected a list", "'cpu.fake'"}},
    {"BadName", "name: my exp\n" + kValid, "1:7", {"name:", "'my exp'", "letters, digits"}},
    {"RepetitionsText",
     kValid + "repetitions: five\n",
     "4:14",
     {"repetitions: expected a non-negative integer, got 'five'"}},
    {"RepetitionsZero",
     kValid + "repetitions: 0\n",
     "4:14",
     {"repetitions: must be at least 1, got 0"}},
    {"RepetitionsNegative",
     kValid + "repetitions: -3\n",
     "4:14",
     {"repetitions: expected a non-negative integer, got '-3'"}},
    {"RepetitionsEmpty",
     kValid + "repetitions:\n",
     "4:1",
     {"repetitions: expected a non-negative integer, got nothing"}},
    {"WarmupNegative",
     kValid + "warmup: -1\n",
     "4:9",
     {"warmup: expected a non-negative integer, got '-1'"}},
    {"WarmupReal",
     kValid + "warmup: 1.5\n",
     "4:9",
     {"warmup: expected a non-negative integer, got '1.5'"}},
    {"TimeoutZero",
     kValid + "timeout_s: 0\n",
     "4:12",
     {"timeout_s: expected a positive number of seconds, got '0'"}},
    {"TimeoutText", kValid + "timeout_s: soon\n", "4:12", {"timeout_s:", "got 'soon'"}},
    {"IsolateUnknown",
     kValid + "isolate: sometimes\n",
     "4:10",
     {"isolate: expected one of auto, always, never, got 'sometimes'"}},
    {"HugeInteger",
     kValid + "warmup: 99999999999999999999\n",
     "4:9",
     {"warmup: integer", "64 bits"}},

    // problem, generator, solver names
    {"UnknownProblem",
     "problem: lcz\n" + kInstances + kSolvers,
     "1:10",
     {"problem: unknown problem 'lcz' (known: ", "fake"}},
    {"UnknownGenerator",
     kProblem + "instances: [{generator: gen2}]\n" + kSolvers,
     "2:25",
     {"instances[0].generator: unknown generator 'gen2' for problem 'fake' (known: gen, flat)"}},
    {"UnknownSolver",
     with_solvers("  - name: gpu.nope\n"),
     "4:11",
     {"solvers[0].name: unknown solver 'gpu.nope' for problem 'fake' (known: cpu.fake, cpu.paired, "
      "gpu.absent, gpu.fake, gpu.multi)"}},
    {"UnknownSolverShorthand",
     with_solvers("  - cpu.fake\n  - cpu.fak\n"),
     "5:5",
     {"solvers[1]", "unknown solver 'cpu.fak'"}},
    {"SolverWithoutName",
     with_solvers("  - params: {threads: 2}\n"),
     "4:5",
     {"solvers[0]: missing required key 'name'"}},

    // keys inside entries
    {"UnknownInstanceKey",
     with_instances("  - generator: gen\n    seed: 3\n"),
     "4:5",
     {"unknown key 'seed' in instances[0] (allowed: generator, params, seeds, file, select)"}},
    {"UnknownSolverKey",
     with_solvers("  - name: cpu.fake\n    parms: {threads: 2}\n"),
     "5:5",
     {"unknown key 'parms' in solvers[0] (allowed: name, params, max)"}},
    {"GeneratorAndFile",
     with_instances("  - generator: gen\n    file: present.txt\n"),
     "3:5",
     {"instances[0]: give either 'generator' or 'file', not both"}},
    {"NeitherGeneratorNorFile",
     with_instances("  - seeds: [1]\n"),
     "3:5",
     {"instances[0]: missing 'generator' or 'file'"}},
    {"ParamsOnFileSource",
     with_instances("  - file: present.txt\n    params: {n: 1}\n"),
     "4:5",
     {"instances[0].params: only generator sources take it"}},
    {"SelectOnGenerator",
     with_instances("  - generator: gen\n    select: first\n"),
     "4:5",
     {"instances[0].select: only file sources take it"}},

    // parameter values, checked against the schemas
    {"GeneratorParamOutOfRange",
     with_instances("  - generator: gen\n    params: {n: [10, 2000000]}\n"),
     "4:22",
     {"generator 'gen': parameter 'n': expected int in [0, 1000000], got int '2000000'"}},
    {"GeneratorParamWrongType",
     with_instances("  - generator: gen\n    params: {alpha: high}\n"),
     "4:21",
     {"generator 'gen': parameter 'alpha': expected real in [0, 1], got string 'high'"}},
    {"GeneratorParamUnknown",
     with_instances("  - generator: gen\n    params: {n: 5, size: 3}\n"),
     "4:20",
     {"generator 'gen': unknown parameter 'size' (known: n, alpha)"}},
    {"FlatGeneratorTakesNoParams",
     with_instances("  - generator: flat\n    params: {n: 5}\n"),
     "4:14",
     {"generator 'flat': unknown parameter 'n' (known: none)"}},
    {"SolverParamOutOfRange",
     with_solvers("  - name: gpu.fake\n    params: {block: [64, 2048]}\n"),
     "5:26",
     {"solver 'gpu.fake': parameter 'block': expected int in [32, 1024], got int '2048'"}},
    {"SolverParamNotAChoice",
     with_solvers("  - name: cpu.fake\n    params: {mode: medium}\n"),
     "5:20",
     {"solver 'cpu.fake': parameter 'mode': expected one of: fast, slow, got string 'medium'"}},
    {"SolverParamUnknown",
     with_solvers("  - name: gpu.fake\n    params: {blok: 64}\n"),
     "5:14",
     {"solver 'gpu.fake': unknown parameter 'blok' (known: block, offload)"}},
    {"SolverBoolIsNotYes",
     with_solvers("  - name: gpu.fake\n    params: {offload: yes}\n"),
     "5:23",
     {"parameter 'offload': expected true or false, got string 'yes'"}},
    {"UnavailableSolverParamsStillChecked",
     with_solvers("  - name: gpu.absent\n    params: {block: 1}\n"),
     "5:21",
     {"solver 'gpu.absent': parameter 'block'", "int in [32, 1024]"}},
    {"NestedMapInParams",
     with_instances("  - generator: gen\n    params: {n: {from: 1, to: 9}}\n"),
     "4:17",
     {"instances[0].params.n: nested maps are not allowed"}},
    {"NestedListInParams",
     with_instances("  - generator: gen\n    params: {n: [1, [2, 3]]}\n"),
     "4:21",
     {"instances[0].params.n: expected a single value, got a list"}},
    {"EmptySweep",
     with_instances("  - generator: gen\n    params: {n: []}\n"),
     "4:17",
     {"instances[0].params.n: the list is empty"}},
    {"RepeatedSweepValue",
     with_instances("  - generator: gen\n    params: {n: [4, 8, 4]}\n"),
     "4:24",
     {"instances[0].params.n: value 4 appears twice"}},
    {"ParamsNotAMap",
     with_instances("  - generator: gen\n    params: [n, 4]\n"),
     "4:13",
     {"instances[0].params: expected a map"}},
    {"MaxNotANumber",
     with_solvers("  - name: cpu.fake\n    max: {n: big}\n"),
     "5:14",
     {"solvers[0].max.n: expected a number, got 'big'"}},
    {"MaxBoolIsNotANumber",
     with_solvers("  - name: cpu.fake\n    max: {n: true}\n"),
     "5:14",
     {"solvers[0].max.n: expected a number, got 'true'"}},

    // seeds
    {"SeedNegative",
     with_instances("  - generator: gen\n    seeds: [1, -2]\n"),
     "4:16",
     {"instances[0].seeds: expected a non-negative integer, got '-2'"}},
    {"SeedText",
     with_instances("  - generator: gen\n    seeds: one\n"),
     "4:12",
     {"instances[0].seeds: expected a non-negative integer, got 'one'"}},
    {"SeedsMap",
     with_instances("  - generator: gen\n    seeds: {a: 1}\n"),
     "4:12",
     {"instances[0].seeds: expected a non-negative integer or a list of them, got a map"}},
    {"SeedsEmpty",
     with_instances("  - generator: gen\n    seeds: []\n"),
     "4:12",
     {"instances[0].seeds: the list is empty"}},
    {"SeedRepeated",
     with_instances("  - generator: gen\n    seeds: [1, 2, 1]\n"),
     "4:19",
     {"instances[0].seeds: seed 1 appears twice"}},

    // files
    {"FileMissing",
     with_instances("  - file: data/nope.txt\n"),
     "3:11",
     {"instances[0].file: 'data/nope.txt' does not exist (resolved to '{dir}/data/nope.txt')"}},
    {"FileInList",
     with_instances("  - file: [present.txt, ../gone.txt]\n"),
     "3:25",
     {"instances[0].file: '../gone.txt' does not exist", "resolved to '"}},
    {"FileIsFolder",
     with_instances("  - file: folder\n"),
     "3:11",
     {"instances[0].file: 'folder' is a folder, expected a file (resolved to '{dir}/folder')"}},
    {"FileNotText",
     with_instances("  - file: [present.txt, {a: 1}]\n"),
     "3:25",
     {"instances[0].file: expected a file path, got a map"}},

    // profile
    {"ProfileWithoutMetrics",
     kValid + "profile: {max_launches: 5}\n",
     "4:10",
     {"profile: missing required key 'metrics'"}},
    {"ProfileUnknownKey",
     kValid + "profile: {metrics: [ipc], launches: 5}\n",
     "4:27",
     {"unknown key 'launches' in profile (allowed: metrics, max_launches, backend, cache_control, "
      "replay)"}},
    {"ProfileBackendUnknown",
     kValid + "profile: {metrics: [ipc], backend: nvprof}\n",
     "4:36",
     {"backend: expected one of cupti, ncu, got 'nvprof'"}},
    {"ProfileNcuOptionWithCupti",
     kValid + "profile: {metrics: [ipc], replay: application}\n",
     "4:35",
     {"replay is an ncu option: it needs backend: ncu (the backend is cupti)"}},
    {"ProfileCacheControlUnknown",
     kValid + "profile: {metrics: [ipc], cache_control: some}\n",
     "4:42",
     {"cache_control: expected one of all, none, got 'some'"}},
    {"ProfileMaxLaunchesZero",
     kValid + "profile: {metrics: [ipc], max_launches: 0}\n",
     "4:41",
     {"profile.max_launches: must be at least 1, got 0"}},
    {"ProfileMetricNotText",
     kValid + "profile: {metrics: [ipc, [a]]}\n",
     "4:26",
     {"profile.metrics: expected a metric name"}},
};

INSTANTIATE_TEST_SUITE_P(Experiment, ExperimentErrors, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

TEST(ExperimentMissingFile, NamesThePath) {
  fs::path file = fs::path(::testing::TempDir()) / "dpgpu_no_such_experiment.yaml";
  try {
    parse_experiment(file);
    FAIL() << "no error for a missing file";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(file.string() + ":", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot read"), std::string::npos) << e.what();
  }
}

}  // namespace

// Issue 30, finding 22: what the YAML reader gave only as "bad file" or ignored.
namespace {

std::string parse_error(const std::string& name, const std::string& yaml,
                        fs::path* file_out = nullptr) {
  fs::path dir = fs::path(::testing::TempDir()) / ("dpgpu_errors_" + name);
  fs::create_directories(dir);
  fs::path file = dir / "exp.yaml";
  std::ofstream(file) << yaml;
  if (file_out) *file_out = file;
  try {
    parse_experiment(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ExperimentYaml, DeepNestingIsAClearErrorWithItsLine) {
  fs::path file;
  const std::string m = parse_error(
      "deep", kValid + "plot: " + std::string(500, '[') + std::string(500, ']') + "\n", &file);
  EXPECT_EQ(m.rfind(file.string() + ":4:", 0), 0u) << m;
  EXPECT_NE(m.find("levels deep"), std::string::npos) << m;
  EXPECT_EQ(m.find("bad file"), std::string::npos) << m;
}

TEST(ExperimentYaml, ASecondDocumentIsAnErrorNamingItsLine) {
  fs::path file;
  const std::string m = parse_error("second", kValid + "---\nrepetitions: 3\n", &file);
  EXPECT_EQ(m.rfind(file.string() + ":4:", 0), 0u) << m;
  EXPECT_NE(m.find("second YAML document"), std::string::npos) << m;
  const std::string opened = parse_error("second_opened", "---\n" + kValid + "---\n", &file);
  EXPECT_EQ(opened.rfind(file.string() + ":5:", 0), 0u) << opened;
  EXPECT_EQ(parse_error("one_opened", "---\n" + kValid),
            "");  // one document with its marker is fine
}

// Found by fuzz_experiment: yaml-cpp's parser does not move past a lone ",", so reading every
// document of the stream (YAML::LoadAll) never ended. It is an error, at once.
TEST(ExperimentYaml, InputTheParserCannotMovePastEndsWithAnError) {
  EXPECT_NE(parse_error("comma", ","), "");
  EXPECT_NE(parse_error("comma_after", kValid + ",\n"), "");
}

TEST(ExperimentYaml, EverySixtyFourBitSeedIsAccepted) {
  fs::path dir = fs::path(::testing::TempDir()) / "dpgpu_errors_seed";
  fs::create_directories(dir);
  std::ofstream(dir / "exp.yaml")
      << kProblem + "instances: [{generator: gen, seeds: [0, 18446744073709551615]}]\n" + kSolvers;
  Experiment e = parse_experiment(dir / "exp.yaml");
  EXPECT_EQ(e.instances.at(0).seeds, (std::vector<std::uint64_t>{0, UINT64_MAX}));
  const std::string m = parse_error(
      "seed_big",
      kProblem + "instances: [{generator: gen, seeds: 18446744073709551616}]\n" + kSolvers);
  EXPECT_NE(m.find("above 2^64-1"), std::string::npos) << m;
  EXPECT_NE(
      parse_error("seed_neg", kProblem + "instances: [{generator: gen, seeds: -1}]\n" + kSolvers)
          .find("expected a non-negative integer"),
      std::string::npos);
}
