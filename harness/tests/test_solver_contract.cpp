// test_solver_contract.cpp — the solver contract of registry.hpp: parameters bound to config
// fields, rules on one parameter, across parameters and with instance sizes, typed reads, and
// solve_gpu. A toy problem keeps it apart from every real solver.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/gpu_presence.hpp"
#include "dpgpu/registry.hpp"

namespace {

struct Toy {
  static constexpr const char* name = "toy.contract";
  struct Instance {
    int n = 0;
  };
  struct Solution {
    int echo = 0;
  };
};

enum class Mode { Tile, Cell };

struct ToyConfig {
  int block = 64;
  std::int64_t chunk = 0;
  double ratio = 0.5;
  bool offload = true;
  std::string readonly = "ldg";
  Mode mode = Mode::Tile;
  std::string label = "x";
  int waves = 1;
};

const dpgpu::Registered toy_registered =
    dpgpu::solver<Toy, ToyConfig>("cpu.toy", "a toy with every kind of bound parameter")
        .param("block", &ToyConfig::block, dpgpu::between(32, 1024), "threads per block")
        .rule("block", dpgpu::multiple_of(32))
        .param("chunk", &ToyConfig::chunk, dpgpu::at_least(0), "0: auto")
        .param("ratio", &ToyConfig::ratio, dpgpu::between(0, 1), "a fraction")
        .param("offload", &ToyConfig::offload, "a flag")
        .choice("readonly", &ToyConfig::readonly, {"texture", "ldg", "plain"}, "a path")
        .choice("mode", &ToyConfig::mode, {{"tile", Mode::Tile}, {"cell", Mode::Cell}}, "an enum")
        .param("label", &ToyConfig::label, "any text")
        .param("waves", &ToyConfig::waves, dpgpu::at_least(1),
               "an int field without an upper bound")
        .check([](const ToyConfig& c) -> std::optional<std::string> {
          if (c.mode == Mode::Cell && c.block > 256) return "mode 'cell' needs 'block' <= 256";
          return std::nullopt;
        })
        .check_instance(
            [](const ToyConfig& c, const dpgpu::ValueMap& dims) -> std::optional<std::string> {
              if (std::get<std::int64_t>(dims.at("n")) > 21 && c.offload)
                return "n > 21 needs 'offload' false";
              return std::nullopt;
            })
        .memory([](const Toy::Instance& x, const ToyConfig& c) {
          return dpgpu::MemoryNeed{std::uint64_t(x.n), std::uint64_t(c.block)};
        })
        .solve([](const Toy::Instance& x, const ToyConfig& c, dpgpu::Context&) {
          dpgpu::Outcome<Toy::Solution> o;
          o.objective = x.n * c.block;
          o.solution = Toy::Solution{c.mode == Mode::Cell ? 1 : 0};
          return o;
        });

const dpgpu::Registered toy_gpu_registered =
    dpgpu::solver<Toy, ToyConfig>("gpu.toy", "a GPU solve registered once")
        .param("block", &ToyConfig::block, dpgpu::between(32, 1024), "threads per block")
        .solve_gpu([](const Toy::Instance& x, const ToyConfig& c, dpgpu::Context&) {
          return dpgpu::Outcome<Toy::Solution>{x.n + c.block, std::nullopt, std::nullopt};
        });

const dpgpu::SolverEntry& toy(const char* name = "cpu.toy") {
  const auto* e = dpgpu::Registry::get().solver(Toy::name, name);
  if (!e) throw std::logic_error("toy solver not registered");
  return *e;
}

dpgpu::AnyInstance instance(int n) {
  dpgpu::AnyInstance a;
  a.data = std::make_shared<const Toy::Instance>(Toy::Instance{n});
  a.dims = {{"n", std::int64_t{n}}};
  return a;
}

std::string refusal(const dpgpu::ValueMap& given) {
  try {
    toy().schema.resolve(given, "exp.yaml:3: solver cpu.toy");
  } catch (const dpgpu::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SolverContract, DefaultsComeFromTheConfig) {
  const auto& e = toy();
  const dpgpu::Params p = e.schema.resolve({});
  EXPECT_EQ(p.integer("block"), 64);
  EXPECT_EQ(p.integer("chunk"), 0);
  EXPECT_EQ(p.real("ratio"), 0.5);
  EXPECT_TRUE(p.flag("offload"));
  EXPECT_EQ(p.text("readonly"), "ldg");
  EXPECT_EQ(p.text("mode"), "tile");
  EXPECT_EQ(e.schema.find("mode")->type, dpgpu::ParamType::Choice);
  EXPECT_EQ(e.schema.find("block")->describe_allowed(), "int in [32, 1024]");
}

TEST(SolverContract, BindBuildsTheConfig) {
  const auto& e = toy();
  const ToyConfig c =
      dpgpu::bind<ToyConfig>(e, e.schema.resolve({{"block", std::int64_t{128}},
                                                  {"chunk", std::int64_t{7}},
                                                  {"ratio", std::int64_t{1}},
                                                  {"offload", false},
                                                  {"readonly", std::string("plain")},
                                                  {"mode", std::string("cell")},
                                                  {"label", std::string("y")}}));
  EXPECT_EQ(c.block, 128);
  EXPECT_EQ(c.chunk, 7);
  EXPECT_EQ(c.ratio, 1.0);
  EXPECT_FALSE(c.offload);
  EXPECT_EQ(c.readonly, "plain");
  EXPECT_EQ(c.mode, Mode::Cell);
  EXPECT_EQ(c.label, "y");
  EXPECT_THROW(dpgpu::bind<int>(e, e.schema.resolve({})), std::logic_error);
}

TEST(SolverContract, SolveAndMemoryReceiveTheConfig) {
  const auto& e = toy();
  const auto x = instance(3);
  dpgpu::Context ctx(dpgpu::Backend::Cpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
  const auto p = e.schema.resolve({{"block", std::int64_t{96}}, {"mode", std::string("cell")}});
  const auto out = e.solve(x, p, ctx);
  EXPECT_EQ(out.objective, 3 * 96);
  ASSERT_TRUE(out.solution);
  EXPECT_EQ(static_cast<const Toy::Solution*>(out.solution.get())->echo, 1);
  EXPECT_EQ(e.memory(x, p).device, 96u);
  EXPECT_EQ(e.memory(x, p).host, 3u);
}

TEST(SolverContract, RefusalsNameTheParameterAndTheRule) {
  EXPECT_NE(
      refusal({{"block", std::int64_t{48}}}).find("parameter 'block': must be a multiple of 32"),
      std::string::npos)
      << refusal({{"block", std::int64_t{48}}});
  EXPECT_NE(refusal({{"block", true}}).find("'block'"), std::string::npos);
  EXPECT_NE(refusal({{"readonly", std::string("surface")}}).find("'readonly'"), std::string::npos);
  EXPECT_NE(refusal({{"mode", std::string("diagonal")}}).find("one of: tile, cell"),
            std::string::npos);
  // An int field cannot receive what would wrap.
  EXPECT_NE(refusal({{"chunk", std::int64_t{-1}}}).find("'chunk'"), std::string::npos);
  EXPECT_EQ(toy().schema.find("block")->range.max, 1024);
  // An int field cannot receive what would wrap; an int64 field keeps the schema's own range.
  EXPECT_NE(refusal({{"waves", std::int64_t{3'000'000'000}}}).find("'waves'"), std::string::npos);
  EXPECT_EQ(refusal({{"waves", std::int64_t{2'000'000'000}}}), "");
  EXPECT_FALSE(toy().schema.find("chunk")->range.max);
  // Across parameters, evaluated at resolve time, prefixed by where.
  const std::string both = refusal({{"mode", std::string("cell")}, {"block", std::int64_t{512}}});
  EXPECT_NE(both.find("exp.yaml:3: solver cpu.toy: mode 'cell' needs 'block' <= 256"),
            std::string::npos)
      << both;
  EXPECT_EQ(refusal({{"mode", std::string("cell")}, {"block", std::int64_t{256}}}), "");
}

TEST(SolverContract, InstanceRulesForThePlanner) {
  const auto& e = toy();
  const auto p = e.schema.resolve({});
  EXPECT_EQ(e.check(p, {{"n", std::int64_t{21}}}), std::nullopt);
  EXPECT_EQ(e.check(p, {{"n", std::int64_t{22}}}), "n > 21 needs 'offload' false");
  EXPECT_EQ(e.check(e.schema.resolve({{"offload", false}}), {{"n", std::int64_t{22}}}),
            std::nullopt);
}

TEST(SolverContract, WrongTypeReadsNameTheParameter) {
  const auto p = toy().schema.resolve({});
  try {
    (void)p.integer("offload");
    ADD_FAILURE() << "read a bool as an int";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("parameter 'offload' holds bool"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)p.text("block"), std::logic_error);
  EXPECT_THROW((void)p.flag("label"), std::logic_error);
  EXPECT_THROW((void)p.real("readonly"), std::logic_error);
}

// A registration's own mistake marks that solver broken, naming the solver, its file and the
// rule; it throws nothing, so every other solver and command still runs.
TEST(SolverContract, DefaultsThatBreakARuleAreBugs) {
  auto twice = dpgpu::solver<Toy, ToyConfig>("cpu.toy_bad", "never registered")
                   .param("block", &ToyConfig::block, dpgpu::between(32, 1024), "threads");
  twice.rule("block", dpgpu::power_of_two()).rule("block", dpgpu::one_of({32, 128}));
  EXPECT_NE(twice.entry().broken, "");
  const std::string message = twice.entry().registration_error();
  EXPECT_NE(message.find("solver 'cpu.toy_bad' for toy.contract"), std::string::npos) << message;
  EXPECT_NE(message.find("test_solver_contract.cpp:"), std::string::npos) << message;
  EXPECT_NE(message.find("'block'"), std::string::npos) << message;

  auto bad_default = dpgpu::solver<Toy, ToyConfig>("cpu.toy_bad", "never registered")
                         .param("block", &ToyConfig::block, dpgpu::between(32, 1024), "threads");
  bad_default.check([](const ToyConfig& c) -> std::optional<std::string> {
    if (c.block == 64) return "never 64";
    return std::nullopt;
  });
  EXPECT_NE(bad_default.entry().broken.find("never 64"), std::string::npos)
      << bad_default.entry().broken;

  auto undeclared = dpgpu::solver<Toy, ToyConfig>("cpu.toy_bad", "never registered")
                        .param("block", &ToyConfig::block, dpgpu::between(32, 1024), "threads");
  undeclared.rule("blok", dpgpu::power_of_two());
  EXPECT_NE(undeclared.entry().broken.find("rule for undeclared parameter 'blok'"),
            std::string::npos)
      << undeclared.entry().broken;
}

// Issue 36: a .rule() typo was reported at the registration's first line, and only the first
// mistake of a registration was shown. Each mistake now names its own line, and all are listed.
TEST(SolverContract, EveryMistakeIsListedAtItsOwnLine) {
  auto two = dpgpu::solver<Toy, ToyConfig>("cpu.toy_bad", "never registered")
                 .param("block", &ToyConfig::block, dpgpu::between(32, 1024), "threads");
  const int rule_line = __LINE__ + 1;
  two.rule("blok", dpgpu::power_of_two());
  const int counter_line = __LINE__ + 1;
  two.counter("nodes", dpgpu::CounterKind::Count, "nodes visited");
  const std::string& broken = two.entry().broken;
  const std::string at_rule = "test_solver_contract.cpp:" + std::to_string(rule_line) + ": ";
  const std::string at_counter = "test_solver_contract.cpp:" + std::to_string(counter_line) + ": ";
  EXPECT_NE(broken.find(at_rule + "rule for undeclared parameter 'blok'"), std::string::npos)
      << broken;
  EXPECT_NE(broken.find(at_counter), std::string::npos) << broken;  // the second mistake too
  EXPECT_NE(broken.find("needs its unit"), std::string::npos) << broken;
}

// The backend is what the registration declares, never guessed from the name: a solve_gpu
// under a library's name is a GPU solver; a "gpu." name with a CPU solve is refused.
TEST(SolverContract, TheRegistrationDeclaresTheBackend) {
  const dpgpu::Registered device =
      dpgpu::solver<Toy, ToyConfig>("lib.toy_device", "a GPU solve named after a library")
          .solve_gpu([](const Toy::Instance& x, const ToyConfig&, dpgpu::Context&) {
            return dpgpu::Outcome<Toy::Solution>{x.n, std::nullopt, std::nullopt};
          });
  EXPECT_EQ(toy("lib.toy_device").backend, dpgpu::Backend::Gpu);
  EXPECT_EQ(toy("lib.toy_device").broken, "");
  EXPECT_EQ(toy("cpu.toy").backend, dpgpu::Backend::Cpu);

  // Registered here, in this binary only: the registry-wide test would fail on it.
  const dpgpu::Registered misnamed =
      dpgpu::solver<Toy, ToyConfig>("gpu.toy_on_cpu", "solve() where solve_gpu was meant")
          .solve([](const Toy::Instance& x, const ToyConfig&, dpgpu::Context&) {
            return dpgpu::Outcome<Toy::Solution>{x.n, std::nullopt, std::nullopt};
          });
  EXPECT_EQ(toy("gpu.toy_on_cpu").backend, dpgpu::Backend::Cpu);
  const std::string message = toy("gpu.toy_on_cpu").registration_error();
  EXPECT_NE(message.find("register it with solve_gpu"), std::string::npos) << message;
  auto declared =
      dpgpu::solver<Toy, ToyConfig>("gpu.toy_declared", "a GPU solver that runs without one")
          .backend(dpgpu::Backend::Gpu);
  EXPECT_EQ(declared.entry().backend, dpgpu::Backend::Gpu);
}

// Counters are declared with their kind; every solver is held to its declarations (the
// harness's own counters aside), and one declared twice or ill-formed is the registration's
// mistake.
TEST(SolverContract, CountersAreDeclaredWithTheirKind) {
  auto counted = dpgpu::solver<Toy, ToyConfig>("cpu.toy_counted", "never registered")
                     .counter("nodes", dpgpu::CounterKind::Count, "nodes visited", "nodes")
                     .counter("table_bytes", dpgpu::CounterKind::Bytes, "the table");
  const dpgpu::SolverEntry& e = counted.entry();
  ASSERT_EQ(e.counters.size(), 2u);
  EXPECT_EQ(std::string(dpgpu::counter_kind_name(e.counters[1].kind)), "bytes");
  EXPECT_EQ(e.undeclared_counter({{"nodes", 3}, {"peak_device_bytes", 64}}).value_or(""), "");
  const auto why = e.undeclared_counter({{"nodes", 3}, {"steps", 1}});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("solver 'cpu.toy_counted' set counter 'steps'"), std::string::npos) << *why;
  // Nothing declared: every counter it sets is undeclared.
  const auto bare = toy().undeclared_counter({{"anything", 1}});
  ASSERT_TRUE(bare.has_value());
  EXPECT_NE(bare->find("set counter 'anything'"), std::string::npos) << *bare;
  EXPECT_EQ(toy().undeclared_counter({{"annotated_launches", 2}}).value_or(""), "");

  auto twice = dpgpu::solver<Toy, ToyConfig>("cpu.toy_bad", "never registered")
                   .counter("nodes", dpgpu::CounterKind::Count, "nodes", "nodes")
                   .counter("nodes", dpgpu::CounterKind::Rate, "nodes per second", "nodes");
  EXPECT_NE(twice.entry().broken.find("counter 'nodes' declared twice"), std::string::npos)
      << twice.entry().broken;
  auto no_unit = dpgpu::solver<Toy, ToyConfig>("cpu.toy_no_unit", "never registered")
                     .counter("nodes", dpgpu::CounterKind::Count, "nodes visited");
  EXPECT_NE(no_unit.entry().broken.find("needs its unit"), std::string::npos)
      << no_unit.entry().broken;
}

// A '#' in a declared name stands for a whole number (one counter per GPU or per range).
TEST(SolverContract, CounterPatternsMatchNumbers) {
  using dpgpu::counter_name_matches;
  EXPECT_TRUE(counter_name_matches("gpu#.compute_s", "gpu0.compute_s"));
  EXPECT_TRUE(counter_name_matches("gpu#.compute_s", "gpu12.compute_s"));
  EXPECT_FALSE(counter_name_matches("gpu#.compute_s", "gpu.compute_s"));
  EXPECT_FALSE(counter_name_matches("gpu#.compute_s", "gpux.compute_s"));
  EXPECT_FALSE(counter_name_matches("gpu#.compute_s", "gpu1.compute_s_extra"));
  EXPECT_TRUE(counter_name_matches("range#_from", "range3_from"));
  EXPECT_TRUE(counter_name_matches("nodes", "nodes"));
  EXPECT_FALSE(counter_name_matches("nodes", "node"));
  const std::vector<dpgpu::CounterSpec> specs{
      dpgpu::counters::seconds("gpu#.wait_s", "one GPU's wait")};
  EXPECT_EQ(dpgpu::undeclared_counter("s", specs, {{"gpu3.wait_s", 1}}).value_or(""), "");
  EXPECT_NE(dpgpu::undeclared_counter("s", specs, {{"gpu3.peer_s", 1}}).value_or(""), "");
}

// What makes a declaration well formed: a name, help, a unit for counts and rates only.
TEST(SolverContract, CounterDeclarationsAreWellFormed) {
  using namespace dpgpu::counters;
  EXPECT_FALSE(dpgpu::counter_spec_error(count("nodes", "nodes", "visited")));
  EXPECT_FALSE(dpgpu::counter_spec_error(bytes("table_bytes", "the table")));
  EXPECT_FALSE(dpgpu::counter_spec_error(seconds("gpu#.wait_s", "waiting")));
  EXPECT_TRUE(dpgpu::counter_spec_error(count("nodes", "", "visited")));
  EXPECT_TRUE(dpgpu::counter_spec_error(rate("nodes_per_s", "", "speed")));
  EXPECT_TRUE(dpgpu::counter_spec_error(ratio("share", "")));
  EXPECT_TRUE(dpgpu::counter_spec_error(count("Nodes", "nodes", "visited")));
  EXPECT_TRUE(dpgpu::counter_spec_error(count("", "nodes", "visited")));
  dpgpu::CounterSpec with_unit = bytes("b", "bytes");
  with_unit.unit = "B";
  EXPECT_TRUE(dpgpu::counter_spec_error(with_unit));
  dpgpu::CounterSpec odd = count("n", "nodes", "nodes");
  odd.kind = static_cast<dpgpu::CounterKind>(9);
  EXPECT_TRUE(dpgpu::counter_spec_error(odd));
}

TEST(SolverContract, CommonRules) {
  EXPECT_EQ(dpgpu::power_of_two()(dpgpu::Value(std::int64_t{64})), std::nullopt);
  EXPECT_NE(dpgpu::power_of_two()(dpgpu::Value(std::int64_t{48})), std::nullopt);
  EXPECT_NE(dpgpu::power_of_two()(dpgpu::Value(std::int64_t{0})), std::nullopt);
  EXPECT_EQ(dpgpu::one_of({4, 8})(dpgpu::Value(std::int64_t{8})), std::nullopt);
  EXPECT_EQ(*dpgpu::one_of({4, 8})(dpgpu::Value(std::int64_t{5})), "must be one of 4, 8, got 5");
  EXPECT_EQ(*dpgpu::multiple_of(32)(dpgpu::Value(std::int64_t{48})),
            "must be a multiple of 32, got 48");
}

TEST(SolverContract, SolveGpuIsOneRegistration) {
  const auto& e = toy("gpu.toy");
  EXPECT_EQ(e.backend, dpgpu::Backend::Gpu);
#if DPGPU_WITH_CUDA
  EXPECT_EQ(e.unavailable, "");
  ASSERT_TRUE(e.solve);
  const auto x = instance(5);
  const auto p = e.schema.resolve({});
  dpgpu::Context ctx(dpgpu::Backend::Cpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
  const std::string why = dpgpu::no_usable_gpu_reason();
  if (why.empty()) {
    EXPECT_EQ(e.solve(x, p, ctx).objective, 5 + 64);
  } else {
    try {
      e.solve(x, p, ctx);
      ADD_FAILURE() << "solved without a usable GPU";
    } catch (const dpgpu::GpuUnavailable& err) {
      EXPECT_EQ(std::string(err.what()), "skipped: no usable GPU (" + why + ")");
    }
    // What the user can do about it, not cudart's "driver version is insufficient".
    EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;
  }
#else
  EXPECT_EQ(e.unavailable, "dpgpu was built without CUDA");
  EXPECT_FALSE(e.solve);
#endif
}

}  // namespace
