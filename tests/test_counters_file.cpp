// counters.json: a run writes what each solver of its plan declares of its counters (kind,
// unit, help), beside plan.json, without changing runs.csv or summary.csv; a resume keeps it,
// merge carries it; `dpgpu list --counters` shows the same declarations; and a solver that
// sets a counter it does not declare fails its case, naming itself and the counter.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "e2e_support.hpp"

using e2e::run;

namespace {

const std::string kToy = DPGPU_TOY_BIN;
const std::string kBin = DPGPU_BIN;

std::string experiment(const std::string& solvers) {
  return "name: counters\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [5]}\n"
         "solvers:\n" +
         solvers + "repetitions: 1\nwarmup: 0\ntimeout_s: 3\n";
}

nlohmann::json read_json(const std::filesystem::path& file) {
  return nlohmann::json::parse(e2e::slurp(file));
}

}  // namespace

TEST(CountersFile, ARunWritesEachSolversDeclarations) {
  e2e::TempDir d;
  auto yaml = d.write("c.yaml", experiment("  - cpu.right\n  - cpu.bare\n"));
  const auto out = d.path / "out";
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json doc = read_json(out / "counters.json");
  const nlohmann::json& right = doc.at("solvers").at("toy").at("cpu.right");
  EXPECT_EQ(right.at("counters").at("answers").at("kind"), "count");
  EXPECT_EQ(right.at("counters").at("answers").at("unit"), "answers");
  EXPECT_EQ(right.at("counters").at("peak_device_bytes").at("kind"), "bytes");  // the harness's
  EXPECT_EQ(right.at("work_counter"), "");
  EXPECT_TRUE(doc.at("solvers").at("toy").contains("cpu.bare"));
  EXPECT_FALSE(doc.at("solvers").at("toy").contains("cpu.steps"));  // not in the plan
  // The columns stay as they were: a counter is a c.<name> column, nothing more.
  const auto runs = e2e::read_csv(out / "runs.csv");
  ASSERT_FALSE(runs.empty());
  for (const auto& [column, value] : runs.front())
    EXPECT_EQ(column.find("kind"), std::string::npos) << column;

  // A resume keeps it (rewritten from the same registry).
  r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_json(out / "counters.json"), doc);
  // Deleted or damaged, the next resume writes it whole again (it is rebuilt, not a record).
  std::filesystem::remove(out / "counters.json");
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume").code, 0);
  EXPECT_EQ(read_json(out / "counters.json"), doc);
  std::ofstream(out / "counters.json", std::ios::trunc) << "{\"solvers\": {\x01";
  r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("counters.json: unreadable"), std::string::npos) << r.output;
  EXPECT_EQ(read_json(out / "counters.json"), doc);
}

TEST(CountersFile, MergeCarriesTheDeclarations) {
  e2e::TempDir d;
  auto yaml = d.write("c.yaml", experiment("  - cpu.right\n  - cpu.bare\n"));
  for (const char* shard : {"0/2", "1/2"}) {
    auto r = run(kToy + " run " + yaml.string() + " --shard " + shard + " --out " +
                 (d.path / ("s" + std::string(1, shard[0]))).string());
    ASSERT_EQ(r.code, 0) << r.output;
  }
  auto r = run(kToy + " merge " + (d.path / "s0").string() + " " + (d.path / "s1").string() +
               " --into " + (d.path / "all").string());
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json doc = read_json(d.path / "all" / "counters.json");
  EXPECT_EQ(doc.at("solvers").at("toy").at("cpu.right").at("counters").at("answers").at("unit"),
            "answers");
}

TEST(CountersFile, AnUndeclaredCounterFailsItsCaseNamingSolverAndCounter) {
  e2e::TempDir d;
  auto yaml = d.write("u.yaml", experiment("  - cpu.undeclared\n  - cpu.right\n"));
  auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string());
  EXPECT_EQ(r.code, 1) << r.output;  // a case failed
  bool seen = false;
  for (const auto& row : e2e::read_csv(d.path / "out/summary.csv")) {
    if (row.at("solver") == "cpu.right") EXPECT_EQ(row.at("status"), "ok");
    if (row.at("solver") != "cpu.undeclared") continue;
    seen = true;
    EXPECT_EQ(row.at("status"), "error");
    EXPECT_NE(row.at("message").find("solver 'cpu.undeclared' set counter 'surprise'"),
              std::string::npos)
        << row.at("message");
  }
  EXPECT_TRUE(seen);
}

TEST(CountersFile, ListShowsTheDeclarations) {
  auto r = run(kBin + " list --counters cpu.branch_bound");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("knapsack/cpu.branch_bound  (work: nodes)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("nodes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("peak_device_bytes"), std::string::npos) << r.output;
  r = run(kBin + " list --counters tsp");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("gpu#.compute_s"), std::string::npos) << r.output;  // gpu.ivm
  EXPECT_NE(r.output.find("seconds"), std::string::npos) << r.output;
  r = run(kBin + " list --counters --markdown");
  EXPECT_EQ(r.code, 2) << r.output;
}
