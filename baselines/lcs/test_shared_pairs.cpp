// The solvers on real sequences from the shared data folder (skipped where it is absent).
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <cstdlib>
#include <filesystem>

#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"

namespace {

namespace fs = std::filesystem;

fs::path shared_sequences() { return dpgpu::shared_data_dir("sequences"); }

TEST(LcsSharedPairs, EcoliAgainstMutatedCopyAllAgree) {
  auto dir = shared_sequences();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/sequences not present";
  auto loaded = lcs::Problem::load({{dir / "edlib_ecoli_prefix10k/e_coli_DH1_prefix10000.fasta",
                                     dir / "edlib_ecoli_prefix10k/mutated_90_perc.fasta"},
                                    ""});
  const auto& x = loaded.at(0).instance;
  const auto length = lcs::cpu::bitparallel(x.a, x.b);
  EXPECT_EQ(lcs::cpu::linear(x.a, x.b), length);
  EXPECT_EQ(lcs::cpu::omp_wavefront(x.a, x.b, 2, 256), length);
  const auto certificate = lcs::cpu::hirschberg(x.a, x.b);
  auto verdict = lcs::Problem::check(x, {certificate});
  EXPECT_TRUE(verdict.ok) << verdict.message;
  EXPECT_EQ(verdict.objective, length);
  // ~90 % identity: the LCS is most of the shorter string, but not all of it.
  EXPECT_GT(length, std::int64_t(0.85 * 9860));
  EXPECT_LT(length, 9860);
}

TEST(LcsSharedPairs, PhageAgainstItselfIsItsLength) {
  auto dir = shared_sequences();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/sequences not present";
  auto file = dir / "edlib_phage/Enterobacteria_phage_1.fasta";
  const auto loaded = lcs::Problem::load({{file, file}, ""});
  const auto& x = loaded.at(0).instance;
  EXPECT_EQ(lcs::cpu::bitparallel(x.a, x.b), 94481);
}

}  // namespace
