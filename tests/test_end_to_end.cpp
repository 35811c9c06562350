// End-to-end: the real dpgpu binary on small LCS experiments.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dpgpu/gpu_presence.hpp"
#include "e2e_support.hpp"

using e2e::read_csv;
using e2e::run;

namespace {
const std::string kDpgpu = DPGPU_BIN;
}

TEST(EndToEnd, SmallLcsSweepAllSolversAgree) {
  e2e::TempDir d;
  auto yaml = d.write(
      "lcs.yaml",
      "name: e2e-lcs\nproblem: lcs\ninstances:\n"
      "  - generator: random\n    params: {n: [0, 1, 100, 333], alphabet: [2, 4]}\n    seeds: [1, "
      "2]\n"
      "  - generator: planted\n    params: {n: 500, m: 300, alphabet: 4, lcs_fraction: 0.5}\n"
      "solvers:\n  - name: cpu.full_table\n  - name: cpu.linear\n  - name: cpu.hirschberg\n"
      "  - name: cpu.omp_wavefront\n    params: {threads: 2, tile: [16, 64]}\n"
      "  - name: cpu.bitparallel\n  - name: gpu.wavefront\n"
      "repetitions: 2\nwarmup: 0\ntimeout_s: 60\n");
  auto r = run(kDpgpu + " run " + yaml.string() + " --out " + (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  ASSERT_EQ(s.size(), (4u * 2u * 2u + 1u) * 7u);
  std::map<std::string, std::set<std::string>> objectives;  // instance case prefix → objectives
  for (auto& row : s) {
    if (row.at("backend") == "gpu" && row.at("status") == "skipped") continue;  // no GPU here
    EXPECT_EQ(row.at("status"), "ok")
        << row.at("case_id") << ": " << (row.count("message") ? row.at("message") : "");
    auto id = row.at("case_id");
    objectives[id.substr(0, id.rfind('/'))].insert(row.at("objective"));
    if (row.at("solver") == "cpu.full_table" || row.at("solver") == "cpu.hirschberg")
      EXPECT_EQ(row.at("valid"), "true") << "certificate rechecked: " << id;
  }
  for (auto& [inst, objs] : objectives) EXPECT_EQ(objs.size(), 1u) << inst;
  for (auto& row : s)
    if (row.at("instance") == "planted" || row.at("case_id").rfind("planted", 0) == 0)
      if (row.at("status") == "ok") EXPECT_EQ(row.at("objective"), "150");
}

// Where no GPU is usable, the GPU case is skipped and says why; where one is, it runs and
// agrees with the CPU solver. Either way every row is asserted.
TEST(EndToEnd, GpuCasesRunOrAreSkippedWithReason) {
  e2e::TempDir d;
  auto yaml = d.write(
      "g.yaml",
      "name: e2e-gpu\nproblem: lcs\ninstances:\n  - generator: planted\n"
      "    params: {n: 64, lcs_fraction: 0.5}\n"
      "solvers:\n  - name: gpu.wavefront\n  - name: cpu.linear\nrepetitions: 1\nwarmup: 0\n");
  auto r = run(kDpgpu + " run " + yaml.string() + " --out " + (d.path / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  ASSERT_EQ(s.size(), 2u);
  const bool gpu = dpgpu::no_usable_gpu_reason().empty();
  std::map<std::string, std::map<std::string, std::string>> by_solver;
  for (auto& row : s) by_solver[row.at("solver")] = row;
  const auto& cpu_row = by_solver.at("cpu.linear");
  EXPECT_EQ(cpu_row.at("status"), "ok");
  EXPECT_EQ(cpu_row.at("objective"), "32") << "planted: half of 64";
  EXPECT_EQ(cpu_row.at("valid"), "true");
  const auto& gpu_row = by_solver.at("gpu.wavefront");
  if (gpu) {
    EXPECT_EQ(gpu_row.at("status"), "ok") << gpu_row.at("message");
    EXPECT_EQ(gpu_row.at("objective"), "32");
    EXPECT_EQ(gpu_row.at("valid"), "true") << "the planted length is a known optimum";
  } else {
    // No GPU here, or a CPU-only build (no nvcc: scripts/setup.sh on a fresh machine).
    EXPECT_EQ(gpu_row.at("status"), "skipped");
    const std::string& why = gpu_row.at("message");
    EXPECT_TRUE(why.find("no usable GPU") != std::string::npos ||
                why.find("built without CUDA") != std::string::npos)
        << why;
  }
}

TEST(EndToEnd, TableTooLargeForMemoryIsRefusedWithBytes) {
  e2e::TempDir d;
  auto yaml = d.write(
      "big.yaml",
      "name: e2e-big\nproblem: lcs\ninstances:\n  - generator: random\n    params: {n: 3000000}\n"
      "solvers:\n  - name: cpu.full_table\nrepetitions: 1\nwarmup: 0\n");
  auto r = run(kDpgpu + " run " + yaml.string() + " --out " + (d.path / "out").string());
  EXPECT_EQ(r.code, 0) << "a refusal planned from the memory estimate is not a failure: "
                       << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].at("status"), "oom");
  EXPECT_NE(s[0].at("message").find("iB of host memory"), std::string::npos)
      << s[0].at("message");  // human units
  EXPECT_NE(s[0].at("message").find("available"), std::string::npos) << s[0].at("message");
}

TEST(EndToEnd, FastaWithOneRecordIsAnErrorNamingTheFile) {
  e2e::TempDir d;
  d.write("one.fa", ">only\nACGT\n");
  auto yaml = d.write("f.yaml",
                      "name: e2e-fasta\nproblem: lcs\ninstances:\n  - file: one.fa\nsolvers:\n  - "
                      "name: cpu.linear\n");
  auto r = run(kDpgpu + " check " + yaml.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("one.fa"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("f.yaml:4"), std::string::npos) << r.output;
}

TEST(EndToEnd, UnknownSolverListsKnownOnes) {
  e2e::TempDir d;
  auto yaml = d.write("u.yaml",
                      "name: e2e-u\nproblem: lcs\ninstances:\n  - generator: random\nsolvers:\n  - "
                      "name: cpu.nope\n");
  auto r = run(kDpgpu + " check " + yaml.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("u.yaml:6"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cpu.bitparallel"), std::string::npos) << r.output;
}

TEST(EndToEnd, ListShowsParametersWithTypesDefaultsAndRanges) {
  auto r = run(kDpgpu + " list solvers");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("gpu.wavefront"), std::string::npos);
  EXPECT_NE(r.output.find("cpu.omp_wavefront"), std::string::npos);
  EXPECT_NE(r.output.find("default"), std::string::npos);
}

TEST(EndToEnd, AnLcsLengthBeyondMemoryIsAnOomRowNotABadAlloc) {
  e2e::TempDir d;
  auto yaml = d.write("huge.yaml",
                      "name: e2e-huge\nproblem: lcs\ninstances:\n  - generator: random\n    "
                      "params: {n: 1000000000000}\n"
                      "solvers:\n  - name: cpu.linear\nrepetitions: 1\nwarmup: 0\n");
  auto r = run(kDpgpu + " run " + yaml.string() + " --out " + (d.path / "out").string());
  EXPECT_EQ(r.code, 0) << r.output;
  auto s = read_csv(d.path / "out/summary.csv");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].at("status"), "oom");
  EXPECT_NE(s[0].at("message").find("needs 3.64 TiB of host memory"), std::string::npos)
      << s[0].at("message");  // 4e12 bytes
}

// Files are judged by content: a TSPLIB file given to LCS, a FASTA to knapsack, a gzip to
// TSP are refused naming the file and what it looks like.
TEST(EndToEnd, AFileOfTheWrongKindIsRefusedByContent) {
  e2e::TempDir d;
  d.write("tour.tsp",
          "NAME: tiny\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
          "1 0 0\n2 0 1\n3 1 0\nEOF\n");
  d.write("pair.fa", ">a\nACGT\n>b\nAGT\n");
  d.write("packed.tsp", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8) + "rest");
  struct Case {
    std::string problem, file, solver, expect;
  };
  for (const Case& c :
       {Case{"lcs", "tour.tsp", "cpu.linear", "looks like a TSPLIB file (line 1: 'NAME: tiny')"},
        Case{"knapsack", "pair.fa", "cpu.dp", "looks like a FASTA file"},
        Case{"tsp", "packed.tsp", "cpu.held_karp", "looks like a compressed file"}}) {
    auto yaml = d.write("k.yaml", "name: kinds\nproblem: " + c.problem +
                                      "\ninstances:\n  - file: " + c.file +
                                      "\nsolvers:\n  - name: " + c.solver + "\n");
    auto r = run(kDpgpu + " check " + yaml.string());
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(c.file), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.problem << ": " << r.output;
  }
}

// A file's known optimum (OPTIMA.tsv beside it) is a column of runs.csv and summary.csv,
// and validity uses it: an OPTIMA.tsv that disagrees with the solvers makes the rows invalid.
TEST(EndToEnd, AFilesKnownOptimumIsAColumnAndChecksTheAnswer) {
  e2e::TempDir d;
  // The rectangle 0,0 - 0,3 - 4,3 - 4,0: its shortest tour is the perimeter, 14.
  d.write("rect.tsp",
          "NAME: rect\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
          "1 0 0\n2 0 3\n3 4 3\n4 4 0\nEOF\n");
  auto yaml = d.write("o.yaml",
                      "name: optimum\nproblem: tsp\ninstances:\n  - file: rect.tsp\n"
                      "solvers:\n  - cpu.held_karp\nrepetitions: 1\nwarmup: 0\n");
  for (int optimum : {14, 13}) {
    d.write("OPTIMA.tsv",
            "name\ttype\tdimension\toptimum\nrect\tTSP\t4\t" + std::to_string(optimum) + "\n");
    auto out = d.path / ("out" + std::to_string(optimum));
    auto r = run(kDpgpu + " run " + yaml.string() + " --out " + out.string());
    EXPECT_EQ(r.code, optimum == 14 ? 0 : 1) << r.output;
    for (auto file : {"runs.csv", "summary.csv"}) {
      auto rows = read_csv(out / file);
      ASSERT_EQ(rows.size(), 1u) << file;
      EXPECT_EQ(rows[0].at("objective"), "14") << file;
      EXPECT_EQ(rows[0].at("known_optimum"), std::to_string(optimum)) << file;
      EXPECT_EQ(rows[0].at("valid"), optimum == 14 ? "true" : "false") << file;
      EXPECT_EQ(rows[0].at("status"), optimum == 14 ? "ok" : "invalid") << file;
    }
  }
}
