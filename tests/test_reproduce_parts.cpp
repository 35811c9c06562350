// The pieces of `dpgpu reproduce` (harness/src/reproduce/): the `tiers:` key as the
// experiment parser checks it, --set by a list item's place, fresh seeds and the claims that
// follow them, paper numbers.
#include <gtest/gtest.h>

#include <string>

#include "dpgpu/error.hpp"
#include "e2e_support.hpp"
#include "experiment/experiment_override.hpp"
#include "reproduce/claim_sets.hpp"
#include "reproduce/claim_verdicts.hpp"
#include "reproduce/papers.hpp"
#include "reproduce/seeds.hpp"
#include "reproduce/tiers.hpp"

namespace {

template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const dpgpu::InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kToy = R"(name: toy
problem: toy
instances:
  - generator: count
    params: {n: [10, 20]}
    seeds: [1, 2]
solvers: [cpu.right]
claims:
  - id: c1
    says: s
    paper: 000 Fig. 1
    rows: {solver: cpu.right, instance: count-s1}
    column: objective
    equals: 10
)";

// tiers: as check_tiers reads it inside the file `text` (its claims from claims:).
std::string tier_error(const e2e::TempDir& dir, const std::string& tiers) {
  const auto file = dir.write("t.yaml", kToy + tiers);
  return error_of([&] {
    YAML::Node root = YAML::LoadFile(file.string());
    const auto claims = dpgpu::read_claims_file(file.string()).claims;
    dpgpu::check_tiers(root["tiers"], root, file.string(), claims);
  });
}

}  // namespace

TEST(ReproduceTiers, ReadsSetFilterFullOnlyAndSkip) {
  e2e::TempDir dir;
  const auto file = dir.write("t.yaml", kToy + R"(tiers:
  quick:
    set: ["instances.0.params.n=[10]", "repetitions=1"]
    filter: 'n=10\]'
    full_only: {c1: needs n = 20}
)");
  const auto tiers = dpgpu::read_tiers_file(file);
  ASSERT_EQ(tiers.count("quick"), 1u);
  const dpgpu::Tier& q = tiers.at("quick");
  EXPECT_EQ(q.sets, (std::vector<std::string>{"instances.0.params.n=[10]", "repetitions=1"}));
  EXPECT_EQ(q.filter, "n=10\\]");
  EXPECT_EQ(q.full_only.at("c1"), "needs n = 20");
  EXPECT_TRUE(q.skip.empty());
  EXPECT_EQ(tier_error(dir, "tiers:\n  quick: {set: [\"repetitions=1\"]}\n"), "");
}

TEST(ReproduceTiers, MistakesNameFileLineAndKey) {
  e2e::TempDir dir;
  const std::string f = (dir.path / "t.yaml").string();
  EXPECT_EQ(tier_error(dir, "tiers:\n  full: {set: []}\n"),
            f + ":16:3: tiers: unknown key 'full' (allowed: quick)");
  EXPECT_EQ(tier_error(dir, "tiers:\n  quick: {sets: []}\n"),
            f + ":16:11: tiers.quick: unknown key 'sets' (allowed: set, filter, full_only, skip)");
  EXPECT_NE(tier_error(dir, "tiers:\n  quick: {set: [\"solvers.cpu.nope.params.x=1\"]}\n")
                .find("tiers.quick.set: --set solvers.cpu.nope.params.x=1: "),
            std::string::npos);
  EXPECT_NE(tier_error(dir, "tiers:\n  quick: {set: [\"no equals sign\"]}\n")
                .find("tiers.quick.set[0]: --set 'no equals sign': expected PATH=VALUE"),
            std::string::npos);
  EXPECT_NE(tier_error(dir, "tiers:\n  quick: {filter: \"(\"}\n")
                .find("tiers.quick.filter: not a regular expression"),
            std::string::npos);
  EXPECT_EQ(tier_error(dir, "tiers:\n  quick: {full_only: {c9: why}}\n"),
            f + ":16:22: tiers.quick.full_only: 'c9' is no claim of this file");
}

TEST(ReproduceOverride, ListItemsByPlace) {
  const std::string text = R"(parts:
  - problem: a
    instances: [{generator: g, seeds: [1]}, {generator: g, seeds: [5]}]
  - problem: b
    instances: [{generator: h}]
)";
  const std::string out = dpgpu::apply_overrides(
      text,
      dpgpu::parse_overrides({"parts.0.instances.1.seeds=[7]", "parts.1.instances.0.seeds=[9]"}),
      "x.yaml");
  const YAML::Node root = YAML::Load(out);
  EXPECT_EQ(root["parts"][0]["instances"][0]["seeds"][0].as<int>(), 1);
  EXPECT_EQ(root["parts"][0]["instances"][1]["seeds"][0].as<int>(), 7);
  EXPECT_EQ(root["parts"][1]["instances"][0]["seeds"][0].as<int>(), 9);
  // Past the end: no item of that name, and the error lists the items.
  EXPECT_NE(error_of([&] {
              dpgpu::apply_overrides(text, dpgpu::parse_overrides({"parts.2.problem=c"}), "x.yaml");
            }).find("no item named '2'"),
            std::string::npos);
}

TEST(ReproduceSeeds, FreshSeedsShiftEveryGeneratedSourceAndClaimsFollow) {
  e2e::TempDir dir;
  const auto file = dir.write("p.yaml", R"(parts:
  - problem: a
    instances:
      - {generator: g, seeds: [1, 2]}
      - {file: x.txt}
  - problem: b
    instances:
      - {generator: h}
)");
  EXPECT_EQ(dpgpu::fresh_seed_sets(file, {}, 1000),
            (std::vector<std::string>{"parts.0.instances.0.seeds=[1001, 1002]",
                                      "parts.1.instances.0.seeds=[1001]"}));
  const auto flat = dir.write("f.yaml", kToy);
  EXPECT_EQ(dpgpu::fresh_seed_sets(flat, {"instances.0.seeds=[3]"}, 10),
            (std::vector<std::string>{"instances.0.seeds=[13]"}));
  EXPECT_GE(dpgpu::clock_seed_offset(), 1000u);

  EXPECT_EQ(dpgpu::shifted_instance("coin18-s1", 1000), "coin18-s1001");
  EXPECT_EQ(dpgpu::shifted_instance("random-n512-p1-100-s12", 3), "random-n512-p1-100-s15");
  EXPECT_EQ(dpgpu::shifted_instance("br17", 3), "br17");
  auto claims = dpgpu::read_claims_file(flat.string()).claims;
  dpgpu::follow_seeds(claims.at(0), 1000);
  bool followed = false;
  for (const auto& cond : claims.at(0).rows.conditions)
    if (cond.column == "instance") followed = cond.texts.at(0) == "count-s1001";
  EXPECT_TRUE(followed);
}

TEST(ReproducePapers, NumbersAndCitations) {
  EXPECT_EQ(dpgpu::paper_number("4"), "004");
  EXPECT_EQ(dpgpu::paper_number("000"), "000");
  EXPECT_NE(error_of([] { dpgpu::paper_number("7"); }).find("papers: 000, 001, 002, 003, 004"),
            std::string::npos);
  EXPECT_NE(error_of([] { dpgpu::paper_number("abc"); }), "");
  dpgpu::Claim c;
  c.paper = "004 Table 2";
  EXPECT_EQ(dpgpu::paper_of(c), "004");
  c.paper = "README headline";
  EXPECT_EQ(dpgpu::paper_of(c), "");
  c.paper = "issue 28";
  EXPECT_EQ(dpgpu::paper_of(c), "");
}

TEST(ReproduceClaimSets, ClaimsFollowTheSeedsAndFullOnlyClaimsLeaveTheRun) {
  e2e::TempDir dir;
  const auto file = dir.write("t.yaml", kToy);
  EXPECT_TRUE(dpgpu::claim_sets(file, {}, 0).empty());
  EXPECT_EQ(dpgpu::claim_sets(file, {}, 1000),
            std::vector<std::string>{"claims.0.rows.instance=count-s1001"});
  dpgpu::Tier quick;
  quick.full_only["c1"] = "why";
  EXPECT_EQ(dpgpu::claim_sets(file, quick, 1000),
            (std::vector<std::string>{"claims=[]", "tiers={}"}));
  // The overrides apply: the claim names the shifted instance.
  const std::string text = dpgpu::apply_overrides(
      kToy, dpgpu::parse_overrides(dpgpu::claim_sets(file, {}, 7)), file.string());
  EXPECT_EQ(YAML::Load(text)["claims"][0]["rows"]["instance"].Scalar(), "count-s8");
}

// Only a CPU row's `threads` is a request for cores: gpu.kawanami's 1024 threads per block on
// a 16-core host left two of paper 000's claims "not evaluated" in the first H200 reproduction.
TEST(ReproduceClaimVerdicts, OnlyCpuThreadsBeyondTheCoresLeaveAClaimUnjudged) {
  dpgpu::Claim c;  // no conditions: every row is on its side
  const dpgpu::ClaimRow gpu{{"solver", "gpu.kawanami"}, {"backend", "gpu"}, {"s.threads", "1024"}};
  const dpgpu::ClaimRow cpu{{"solver", "cpu.omp"}, {"backend", "cpu"}, {"s.threads", "64"}};
  EXPECT_EQ(dpgpu::threads_beyond_cores(c, {gpu}, 16), std::nullopt);
  const auto why = dpgpu::threads_beyond_cores(c, {gpu, cpu}, 16);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "cpu.omp asks for 64 threads and this machine has 16 cores");
  EXPECT_EQ(dpgpu::threads_beyond_cores(c, {cpu}, 64), std::nullopt);
}

// A claim of a GPU against a CPU measures two parts of one host: the reproduction report says
// it carries over only to a like host; GPU against GPU, or sides it cannot tell, stay ratios.
TEST(ReproduceClaimVerdicts, AGpuOverCpuRatioIsKindOfItsOwn) {
  e2e::TempDir dir;
  const auto file = dir.write("k.yaml", R"(name: k
claims:
  - {id: gpu_over_cpu, says: s., paper: 000, rows: {solver: cpu.omp}, ratio_to: {solver: gpu.tile}, at_least: 2}
  - {id: gpu_over_gpu, says: s., paper: 000, rows: {solver: gpu.a}, ratio_to: {solver: gpu.b}, at_least: 2}
  - {id: unnamed_side, says: s., paper: 000, rows: {i.n: 10}, ratio_to: {solver: gpu.b}, at_least: 2}
  - {id: two_cpus, says: s., paper: 000, rows: {solver: [cpu.a, cpu.b]}, ratio_to: {solver: gpu.b}, at_least: 2}
  - {id: mixed_side, says: s., paper: 000, rows: {solver: [cpu.a, gpu.b]}, ratio_to: {solver: gpu.b}, at_least: 2}
)");
  const auto claims = dpgpu::read_claims_file(file.string()).claims;
  ASSERT_EQ(claims.size(), 5u);
  EXPECT_EQ(dpgpu::claim_kind(claims[0]), "ratio of GPU and CPU");
  EXPECT_EQ(dpgpu::claim_kind(claims[1]), "ratio");
  EXPECT_EQ(dpgpu::claim_kind(claims[2]), "ratio");
  EXPECT_EQ(dpgpu::claim_kind(claims[3]), "ratio of GPU and CPU");
  EXPECT_EQ(dpgpu::claim_kind(claims[4]), "ratio");
}
