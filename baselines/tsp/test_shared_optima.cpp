// Held-Karp reaches the known optimum (OPTIMA.tsv) of the small shared TSPLIB instances
// (skipped where the shared data folder is absent).
#include <gtest/gtest.h>

#include "dpgpu/shared_data.hpp"

#include <cstdlib>

#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"

namespace {

namespace fs = std::filesystem;

fs::path shared_tsplib() { return dpgpu::shared_data_dir("tsplib"); }

struct Case {
  const char* file;
  bool serial, layered;  // which solvers run: cpu.held_karp, cpu.omp_held_karp (2 threads)
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.file; }

class TspSharedOptima : public testing::TestWithParam<Case> {};

TEST_P(TspSharedOptima, HeldKarpReachesTheKnownOptimum) {
  auto dir = shared_tsplib();
  if (dir.empty()) GTEST_SKIP() << "DPGPU_SHARED/data/tsplib not present";
  auto loaded = tsp::Problem::load({{dir / GetParam().file}, ""}).at(0);
  ASSERT_TRUE(loaded.known_optimum.has_value());
  const auto& x = loaded.instance;
  auto expect_optimal = [&](const tsp::cpu::Tour& t, const char* solver) {
    EXPECT_EQ(t.cost, *loaded.known_optimum) << solver;
    auto v = tsp::Problem::check(x, {t.tour});
    EXPECT_TRUE(v.ok) << solver << ": " << v.message;
    EXPECT_EQ(v.objective, t.cost) << solver;
  };
  if (GetParam().serial) expect_optimal(tsp::cpu::held_karp(x), "held_karp");
  if (GetParam().layered) expect_optimal(tsp::cpu::omp_held_karp(x, 2), "omp_held_karp");
}

// GEO (burma14, ulysses16, ulysses22), LOWER_DIAG_ROW (gr17, gr21, gr24, fri26), ATSP
// FULL_MATRIX (br17). The larger ones run one solver each: gr24 ~1 GB and ~2 s serial;
// fri26 (the whole table would be 4.2 GB) layered in ~1 GB, ~10 s on two threads.
INSTANTIATE_TEST_SUITE_P(
    Small, TspSharedOptima,
    testing::Values(Case{"burma14.tsp", true, true}, Case{"ulysses16.tsp", true, true},
                    Case{"gr17.tsp", true, true}, Case{"br17.atsp", true, true},
                    Case{"gr21.tsp", true, false}, Case{"ulysses22.tsp", false, true},
                    Case{"gr24.tsp", true, false}, Case{"fri26.tsp", false, true}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

}  // namespace
