// Experiment files: a valid file parses to the right values, and expand() multiplies the
// sweeps out in the documented order with the documented labels. Registers the fake
// problem "fake" that test_experiment_errors.cpp also uses (same binary).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "dpgpu/error.hpp"
#include "experiment/all_gpus.hpp"
#include "experiment/experiment.hpp"
#include "dpgpu/registry.hpp"

namespace fs = std::filesystem;
using namespace dpgpu;

namespace {

// A problem with nothing in it but what the experiment layer looks at.
struct Fake {
  static constexpr const char* name = "fake";
  static constexpr const char* help = "a problem for experiment-file tests";
  struct Instance {
    std::int64_t n = 0;
    double alpha = 0;
  };
  struct Solution {
    std::int64_t value = 0;
  };
  static Verdict check(const Instance& x, const Solution& s) {
    return s.value == x.n ? Verdict::valid(s.value) : Verdict::invalid("wrong value");
  }
  static double work(const Instance& x) { return static_cast<double>(x.n); }
  static ValueMap dims(const Instance& x) { return {{"n", x.n}}; }
  static std::vector<Generator<Instance>> generators() {
    Schema gen;
    gen.add({"n", ParamType::Int, std::int64_t{100}, between(0, 1e6), {}, "size"});
    gen.add({"alpha", ParamType::Real, 0.5, between(0, 1), {}, "skew"});
    auto make = [](const Params& p, std::uint64_t) {
      return Loaded<Instance>{"gen", {p.integer("n"), p.real("alpha")}, std::nullopt};
    };
    auto make_flat = [](const Params&, std::uint64_t) {
      return Loaded<Instance>{"flat", {}, std::nullopt};
    };
    return {{"gen", "random sizes", gen, make}, {"flat", "no parameters", Schema{}, make_flat}};
  }
  static std::vector<Loaded<Instance>> load(const FileSource&) { return {}; }
};
DPGPU_REGISTER_PROBLEM(Fake);

Outcome<Fake::Solution> echo(const Fake::Instance& x, const Params&, Context&) {
  return {x.n, Fake::Solution{x.n}, std::nullopt};
}

const auto cpu_fake = solver<Fake>("cpu.fake", "serial")
                          .param("threads", std::int64_t{0}, at_least(0), "0: all cores")
                          .choice("mode", "fast", {"fast", "slow"}, "how")
                          .solve(echo);
const auto gpu_fake = solver<Fake>("gpu.fake", "wavefront")
                          .backend(Backend::Gpu)  // a GPU solver that runs without one
                          .param("block", std::int64_t{256}, between(32, 1024), "threads per block")
                          .param("offload", true, "stream diagonals to the host")
                          .solve(echo);
const auto gpu_multi = solver<Fake>("gpu.multi", "one instance over several GPUs")
                           .backend(Backend::Gpu)
                           .param("gpus", std::int64_t{1}, between(1, 64), "GPUs; all: the host's")
                           .solve(echo);
const auto gpu_absent =
    solver<Fake>("gpu.absent", "needs CUDA")
        .backend(Backend::Gpu)
        .param("block", std::int64_t{256}, between(32, 1024), "threads per block")
        .unavailable("built without CUDA");
// A rule across two parameters: each value is checked alone while parsing, the pair when the
// sweep is expanded (a value valid only with a non-default partner must pass the first).
struct Paired {
  std::int64_t lo = 1, hi = 10;
};
const auto cpu_paired = solver<Fake, Paired>("cpu.paired", "two bounds that must be ordered")
                            .param("lo", &Paired::lo, between(0, 1000), "lower")
                            .param("hi", &Paired::hi, between(0, 1000), "upper")
                            .check([](const Paired& c) -> std::optional<std::string> {
                              if (c.lo > c.hi)
                                return "'lo' (" + std::to_string(c.lo) +
                                       ") must be at most 'hi' (" + std::to_string(c.hi) + ")";
                              return std::nullopt;
                            })
                            .solve(echo);

class ExperimentFile : public ::testing::Test {
 protected:
  void SetUp() override {
    auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           (std::string("dpgpu_") + test->test_suite_name() + "_" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p;
  }
  Experiment parse(const std::string& yaml) { return parse_experiment(write("exp.yaml", yaml)); }

  fs::path dir_;
};

using ExperimentParse = ExperimentFile;
using ExperimentExpand = ExperimentFile;

std::vector<std::string> instance_labels(const Plan& plan) {
  std::vector<std::string> out;
  for (auto& p : plan.instances) out.push_back(p.label);
  return out;
}

std::vector<std::string> solver_labels(const Plan& plan) {
  std::vector<std::string> out;
  for (auto& p : plan.solvers) out.push_back(p.label);
  return out;
}

const char* kFull = R"(name: fake-sweep
description: every key at once
problem: fake
instances:
  - generator: gen
    params: {n: [10, 20], alpha: 0.25}
    seeds: [3, 4]
  - file: data/one.txt
    select: first
  - file: [data/one.txt, ../two.txt]
solvers:
  - name: gpu.fake
    params: {block: [64, 128], offload: false}
  - name: cpu.fake
    max: {n: 20000, alpha: 0.5}
  - gpu.absent
repetitions: 7
warmup: 0
timeout_s: 12.5
isolate: never
profile: {metrics: [gld_efficiency, ipc], max_launches: 3}
plot:
  kind: runtime
  x: n
  y: time_s
)";

}  // namespace

TEST_F(ExperimentParse, FullFileHasEveryValue) {
  write("sub/data/one.txt", "1\n");
  fs::path two = write("two.txt", "2\n");
  fs::path path = write("sub/exp.yaml", kFull);
  Experiment e = parse_experiment(path);

  EXPECT_EQ(e.path, path);
  EXPECT_EQ(e.source_text, kFull);
  EXPECT_EQ(e.name, "fake-sweep");
  EXPECT_EQ(e.description, "every key at once");
  EXPECT_EQ(e.problem, "fake");
  EXPECT_EQ(e.repetitions, 7);
  EXPECT_EQ(e.warmup, 0);
  EXPECT_DOUBLE_EQ(e.timeout_s, 12.5);
  EXPECT_EQ(e.isolate, "never");
  ASSERT_TRUE(e.profile);
  EXPECT_EQ(e.profile->metrics, (std::vector<std::string>{"gld_efficiency", "ipc"}));
  EXPECT_EQ(e.profile->max_launches, 3);
  EXPECT_EQ(e.profile->backend, "cupti") << "the in-worker profiler is the default";
  EXPECT_EQ(e.plot_yaml, "kind: runtime\nx: n\ny: time_s");
  ASSERT_EQ(e.plot.size(), 1u);
  EXPECT_EQ(e.plot[0].kind, "runtime");
  ASSERT_EQ(e.plot[0].columns.size(), 2u);
  EXPECT_EQ(e.plot[0].columns[0].name, "n");
  EXPECT_EQ(e.plot[0].columns[0].where.line, 24);

  ASSERT_EQ(e.instances.size(), 3u);
  const InstanceSource& gen = e.instances[0];
  EXPECT_EQ(gen.generator, "gen");
  EXPECT_EQ(gen.where.line, 5);
  EXPECT_EQ(gen.where.column, 5);
  EXPECT_EQ(gen.seeds, (std::vector<std::uint64_t>{3, 4}));
  ASSERT_EQ(gen.params.size(), 2u);
  EXPECT_EQ(gen.params[0].key, "n");  // file order, not sorted
  EXPECT_EQ(gen.params[0].values, (std::vector<Value>{std::int64_t{10}, std::int64_t{20}}));
  EXPECT_EQ(gen.params[1].key, "alpha");
  EXPECT_EQ(gen.params[1].values, (std::vector<Value>{0.25}));
  EXPECT_EQ(gen.params[0].where.line, 6);

  const InstanceSource& one = e.instances[1];
  EXPECT_TRUE(one.generator.empty());
  EXPECT_EQ(one.file.paths, (std::vector<fs::path>{dir_ / "sub/data/one.txt"}));
  EXPECT_EQ(one.file.select, "first");
  EXPECT_EQ(e.instances[2].file.paths, (std::vector<fs::path>{dir_ / "sub/data/one.txt", two}));

  ASSERT_EQ(e.solvers.size(), 3u);
  EXPECT_EQ(e.solvers[0].name, "gpu.fake");
  EXPECT_EQ(e.solvers[0].params[1].values, (std::vector<Value>{false}));
  EXPECT_EQ(e.solvers[1].name, "cpu.fake");
  EXPECT_EQ(e.solvers[1].max, (std::map<std::string, double>{{"alpha", 0.5}, {"n", 20000}}));
  EXPECT_EQ(e.solvers[2].name, "gpu.absent");  // unavailable is not an error
  EXPECT_EQ(e.solvers[2].where.line, 16);
}

TEST_F(ExperimentParse, DefaultsWhenOmitted) {
  Experiment e = parse("problem: fake\ninstances: [{generator: gen}]\nsolvers: [cpu.fake]\n");
  EXPECT_EQ(e.name, "exp");  // the file's stem
  EXPECT_EQ(e.description, "");
  EXPECT_EQ(e.repetitions, 5);
  EXPECT_EQ(e.warmup, 1);
  EXPECT_DOUBLE_EQ(e.timeout_s, 300);
  EXPECT_EQ(e.isolate, "auto");
  EXPECT_FALSE(e.profile);
  EXPECT_EQ(e.plot_yaml, "");
  EXPECT_EQ(e.instances[0].seeds, (std::vector<std::uint64_t>{1}));
  EXPECT_TRUE(e.instances[0].params.empty());
  EXPECT_TRUE(e.solvers[0].params.empty());
}

TEST_F(ExperimentParse, ScalarsAreTypedByYaml) {
  Experiment e = parse(R"(problem: fake
instances: [{generator: gen}]
solvers:
  - name: cpu.fake
    params: {mode: [fast, "slow"]}
  - name: gpu.fake
    params: {offload: [true, False]}
timeout_s: 2
)");
  EXPECT_EQ(e.solvers[0].params[0].values,
            (std::vector<Value>{std::string("fast"), std::string("slow")}));
  EXPECT_EQ(e.solvers[1].params[0].values, (std::vector<Value>{true, false}));
  EXPECT_DOUBLE_EQ(e.timeout_s, 2.0);
}

TEST_F(ExperimentParse, QuotedNumberStaysText) {
  try {
    parse("problem: fake\ninstances: [{generator: gen, params: {n: '5'}}]\nsolvers: [cpu.fake]\n");
    FAIL() << "a quoted number is text, which an int parameter must refuse";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("got string '5'"), std::string::npos) << err.what();
  }
}

TEST_F(ExperimentParse, ExponentAndPointMakeReals) {
  Experiment e = parse(
      "problem: fake\ninstances: [{generator: gen, params: {alpha: [1, 1e-1, .5, 1.]}}]\n"
      "solvers: [cpu.fake]\n");
  EXPECT_EQ(e.instances[0].params[0].values, (std::vector<Value>{std::int64_t{1}, 0.1, 0.5, 1.0}));
}

TEST_F(ExperimentParse, SingleSeedAndSingleMetric) {
  Experiment e = parse(
      "problem: fake\ninstances: [{generator: gen, seeds: 9}]\nsolvers: [cpu.fake]\n"
      "profile: {metrics: ipc}\n");
  EXPECT_EQ(e.instances[0].seeds, (std::vector<std::uint64_t>{9}));
  EXPECT_EQ(e.profile->metrics, (std::vector<std::string>{"ipc"}));
  EXPECT_EQ(e.profile->max_launches, 20);
}

TEST_F(ExperimentParse, NcuBackendTakesNcuOptions) {
  Experiment e = parse(
      "problem: fake\ninstances: [{generator: gen}]\nsolvers: [cpu.fake]\n"
      "profile: {metrics: ipc, backend: ncu, cache_control: none, replay: application}\n");
  EXPECT_EQ(e.profile->backend, "ncu");
  EXPECT_EQ(e.profile->cache_control, "none");
  EXPECT_EQ(e.profile->replay, "application");
}

TEST_F(ExperimentParse, AbsoluteFilePathKept) {
  fs::path data = write("elsewhere/x.txt", "x");
  Experiment e =
      parse("problem: fake\ninstances: [{file: " + data.string() + "}]\nsolvers: [cpu.fake]\n");
  EXPECT_EQ(e.instances[0].file.paths, (std::vector<fs::path>{data}));
}

TEST_F(ExperimentExpand, SweepCountsOrderAndLabels) {
  Plan plan = expand(parse(R"(problem: fake
instances:
  - generator: gen
    params: {n: [10, 20], alpha: [0.25, 0.5, 1]}
    seeds: [1, 2]
solvers:
  - name: gpu.fake
    params: {block: [64, 128]}
)"));
  ASSERT_EQ(plan.instances.size(), 12u);  // 2 × 3 axes × 2 seeds
  EXPECT_EQ(instance_labels(plan),
            (std::vector<std::string>{
                "gen[alpha=0.25,n=10]#1", "gen[alpha=0.25,n=10]#2", "gen[alpha=0.5,n=10]#1",
                "gen[alpha=0.5,n=10]#2", "gen[alpha=1,n=10]#1", "gen[alpha=1,n=10]#2",
                "gen[alpha=0.25,n=20]#1", "gen[alpha=0.25,n=20]#2", "gen[alpha=0.5,n=20]#1",
                "gen[alpha=0.5,n=20]#2", "gen[alpha=1,n=20]#1", "gen[alpha=1,n=20]#2"}));
  const InstancePoint& last = plan.instances.back();
  EXPECT_EQ(last.source, 0u);
  EXPECT_EQ(last.seed, 2u);
  EXPECT_EQ(last.params.integer("n"), 20);
  EXPECT_TRUE(
      std::holds_alternative<double>(last.params.values().at("alpha")));  // int given for a real
  EXPECT_DOUBLE_EQ(last.params.real("alpha"), 1.0);

  EXPECT_EQ(solver_labels(plan),
            (std::vector<std::string>{"gpu.fake[block=64]", "gpu.fake[block=128]"}));
  EXPECT_EQ(plan.solvers[1].params.integer("block"), 128);
  EXPECT_EQ(plan.solvers[1].solver, Registry::get().solver("fake", "gpu.fake"));
}

// YAML reads `1e5` as a real; an int parameter takes it when it is whole (`n: 1e12` must reach
// the planner's memory estimate, not fail as a type error), and refuses 2.5 with its name.
TEST_F(ExperimentExpand, WholeRealIsAnIntParameter) {
  Plan plan = expand(parse(R"(problem: fake
instances:
  - generator: gen
    params: {n: 1e5}
solvers:
  - name: gpu.fake
    params: {block: 1.28e2}
)"));
  EXPECT_EQ(instance_labels(plan), (std::vector<std::string>{"gen[n=100000]#1"}));
  EXPECT_EQ(plan.instances[0].params.integer("n"), 100000);
  EXPECT_EQ(plan.solvers[0].params.integer("block"), 128);
  try {
    expand(
        parse("problem: fake\ninstances:\n  - generator: gen\n    params: {n: 2.5}\nsolvers:\n  - "
              "name: cpu.fake\n"));
    FAIL() << "n: 2.5 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("parameter 'n': expected int"), std::string::npos)
        << e.what();
  }
}

TEST_F(ExperimentExpand, DefaultsFilledLabelsListGivenKeysOnly) {
  Plan plan = expand(parse(R"(problem: fake
instances:
  - generator: gen
    params: {n: 7}
  - generator: flat
solvers:
  - cpu.fake
  - name: gpu.fake
    params: {offload: false}
)"));
  ASSERT_EQ(plan.instances.size(), 2u);
  EXPECT_EQ(plan.instances[0].label, "gen[n=7]#1");
  EXPECT_EQ(plan.instances[0].params.values(), (ValueMap{{"alpha", 0.5}, {"n", std::int64_t{7}}}));
  EXPECT_EQ(plan.instances[1].label, "flat#1");
  EXPECT_EQ(plan.instances[1].source, 1u);

  ASSERT_EQ(plan.solvers.size(), 2u);
  EXPECT_EQ(plan.solvers[0].label, "cpu.fake");
  EXPECT_EQ(plan.solvers[0].params.values(),
            (ValueMap{{"mode", std::string("fast")}, {"threads", std::int64_t{0}}}));
  EXPECT_EQ(plan.solvers[1].label, "gpu.fake[offload=false]");
  EXPECT_EQ(plan.solvers[1].params.integer("block"), 256);
  EXPECT_EQ(plan.solvers[1].spec, 1u);
}

TEST_F(ExperimentExpand, RuleAcrossParametersSeesTheWholePoint) {
  // lo: 50 alone would break lo <= hi with hi's default (10); with hi: 60 it is valid.
  Plan plan =
      expand(parse("problem: fake\ninstances: [{generator: gen}]\nsolvers:\n"
                   "  - name: cpu.paired\n    params: {lo: 50, hi: [60, 70]}\n"));
  ASSERT_EQ(plan.solvers.size(), 2u);
  EXPECT_EQ(plan.solvers[1].params.integer("lo"), 50);
  EXPECT_EQ(plan.solvers[1].params.integer("hi"), 70);
  // A sweep point that breaks it is named by the line of the first key the rule names.
  try {
    expand(
        parse("problem: fake\ninstances: [{generator: gen}]\nsolvers:\n"
              "  - name: cpu.paired\n    params: {lo: [5, 50], hi: 20}\n"));
    FAIL() << "lo 50 > hi 20 was accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("exp.yaml:5:14: solver 'cpu.paired': "), std::string::npos)
        << m;  // the key 'lo'
    EXPECT_NE(m.find("'lo' (50) must be at most 'hi' (20) (at cpu.paired[hi=20,lo=50])"),
              std::string::npos)
        << m;
  }
}

// `gpus: all` is the host's GPU count (at least 1) in the parameters; the label keeps "all",
// so the case ids do not depend on the host. Only `gpus` takes it; a typo is refused at its line.
TEST_F(ExperimentExpand, GpusAllIsTheHostsCardCount) {
  const Experiment e = parse(
      "problem: fake\ninstances: [{generator: gen}]\nsolvers:\n"
      "  - name: gpu.multi\n    params: {gpus: [2, all]}\n");
  for (int cards : {0, 1, 4}) {
    const Plan plan = expand(e, cards);
    ASSERT_EQ(plan.solvers.size(), 2u);
    EXPECT_EQ(plan.solvers[0].params.integer("gpus"), 2);
    EXPECT_EQ(plan.solvers[1].params.integer("gpus"), std::max(1, cards)) << cards;
    EXPECT_EQ(plan.solvers[1].label, "gpu.multi[gpus=all]");
  }
  EXPECT_EQ(expand(e).solvers[1].params.integer("gpus"), 1);
  for (const char* bad : {"{gpus: al}", "{gpus: ALL}"}) {
    try {
      parse(std::string("problem: fake\ninstances: [{generator: gen}]\nsolvers:\n  - name: "
                        "gpu.multi\n    params: ") +
            bad + "\n");
      FAIL() << bad << " was accepted";
    } catch (const InputError& err) {
      EXPECT_NE(std::string(err.what()).find("exp.yaml:5:"), std::string::npos) << err.what();
    }
  }
  EXPECT_THROW(parse("problem: fake\ninstances: [{generator: gen}]\nsolvers:\n  - name: gpu.fake\n "
                     "   params: {block: all}\n"),
               InputError);
}

TEST_F(ExperimentExpand, FileSourceIsOnePointWithSeedZero) {
  write("a.txt", "a");
  write("sub/b.txt", "b");
  Plan plan = expand(parse(
      "problem: fake\ninstances:\n  - file: [a.txt, sub/b.txt]\n  - {file: a.txt, select: s}\n"
      "solvers: [cpu.fake]\n"));
  ASSERT_EQ(plan.instances.size(), 2u);
  EXPECT_EQ(plan.instances[0].label, "a.txt,b.txt");
  EXPECT_EQ(plan.instances[0].seed, 0u);
  EXPECT_TRUE(plan.instances[0].params.values().empty());
  EXPECT_EQ(plan.instances[1].label, "a.txt:s");
}

TEST_F(ExperimentExpand, UnavailableSolverStillExpands) {
  Plan plan =
      expand(parse("problem: fake\ninstances: [{generator: flat}]\n"
                   "solvers: [{name: gpu.absent, params: {block: [32, 64]}}]\n"));
  ASSERT_EQ(plan.solvers.size(), 2u);
  EXPECT_EQ(plan.solvers[0].solver->unavailable, "built without CUDA");
  EXPECT_EQ(plan.solvers[1].label, "gpu.absent[block=64]");
}

TEST_F(ExperimentExpand, SourcesKeepFileOrder) {
  Plan plan =
      expand(parse("problem: fake\ninstances:\n  - {generator: flat, seeds: [5, 1]}\n"
                   "  - {generator: gen, params: {n: [3, 1]}}\nsolvers: [cpu.fake]\n"));
  EXPECT_EQ(instance_labels(plan),
            (std::vector<std::string>{"flat#5", "flat#1", "gen[n=3]#1", "gen[n=1]#1"}));
}

TEST(ExperimentWhere, Formats) {
  EXPECT_EQ((Where{"a.yaml", 3, 7}).str(), "a.yaml:3:7");
  EXPECT_EQ((Where{"a.yaml", 3, 0}).str(), "a.yaml:3");
  EXPECT_EQ((Where{"a.yaml", 0, 0}).str(), "a.yaml");
}
