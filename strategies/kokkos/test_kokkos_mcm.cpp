// test_kokkos_mcm.cpp — kokkos.mcm (CUDA) and kokkos.mcm_host (OpenMP) for the matrix chain
// against cpu.serial and cpu.omp on random chains (n = 1, 2, 3, small primes, up to a few
// hundred; dimensions in [1, 100] and [1, 3]: many ties and dimensions of 1), equal
// dimensions, costs above 2^32 (64-bit cells), every kernel and cell width; the
// parenthesization rechecked by the problem's check; overflow refused naming the bound.
// Device tests skip without a GPU; both skip in builds without Kokkos.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "kokkos_test_support.hpp"
#include "mcm/generators.hpp"
#include "mcm/mcm.hpp"
#include "mcm_cpu.hpp"
#include "mcm_kokkos.hpp"

namespace {

using namespace dpgpu::kokkos;
using dpgpu::kokkos::test::base_seed;
using dpgpu::kokkos::test::solve;

const dpgpu::SolverEntry& mcm_solver(bool device) {
  const auto* s = dpgpu::Registry::get().solver("mcm", device ? kMcmDeviceSolver : kMcmHostSolver);
  if (!s) throw std::runtime_error("Kokkos mcm solver not registered");
  return *s;
}

std::vector<mcm::Instance> corpus(std::uint64_t seed, bool large) {
  std::vector<mcm::Instance> v;
  std::vector<std::int64_t> sizes{1, 2, 3, 5, 7, 13, 31, 33, 64, 65, 97};
  if (large) sizes.insert(sizes.end(), {200, 331});
  for (std::int64_t n : sizes) {
    v.push_back(mcm::random_instance(n, 1, 100, ++seed));
    v.push_back(mcm::random_instance(n, 1, 3, ++seed));  // many ties, dimensions of 1
  }
  mcm::Instance eq;
  eq.p.assign(130, 9);
  v.push_back(eq);
  v.push_back(mcm::random_instance(150, 2000, 3000, ++seed));  // costs above 2^32: 64-bit cells
  return v;
}

void expect_optimal(bool device, const mcm::Instance& x, std::int64_t optimum,
                    const dpgpu::ValueMap& params, const std::string& what) {
  const auto& s = mcm_solver(device);
  const auto any = dpgpu::erase_instance<mcm::Problem>({what, x, std::nullopt});
  dpgpu::Context* ctx = nullptr;
  const auto out = solve(s, any, params, &ctx);
  EXPECT_EQ(out.objective, optimum) << what << " n=" << x.n() << " seed " << base_seed();
  ASSERT_TRUE(out.solution) << what;
  const auto verdict =
      mcm::Problem::check(x, *static_cast<const mcm::Solution*>(out.solution.get()));
  EXPECT_TRUE(verdict.ok) << what << " n=" << x.n() << ": " << verdict.message;
  EXPECT_EQ(verdict.objective, optimum) << what << " n=" << x.n() << " certificate";
  if (x.n() >= 2) {
    EXPECT_EQ(ctx->counters().at("kernel_launches"), double(x.n() - 1)) << what;
  }
}

// Every kernel and cell width of the space.
std::vector<std::pair<dpgpu::ValueMap, std::string>> settings(bool device, const mcm::Instance& x) {
  std::vector<std::pair<dpgpu::ValueMap, std::string>> v;
  std::vector<std::string> cells{"64"};
  if (mcm::costs_fit_32_bits(x)) cells.insert(cells.end(), {"auto", "32"});
  for (const auto& cell : cells) {
    v.push_back({{{"cell", cell}}, "cell " + cell});
    if (device)
      for (std::int64_t threads : {32, 128})
        v.push_back({{{"cell", cell}, {"kernel", std::string("block")}, {"threads", threads}},
                     "block threads " + std::to_string(threads) + " cell " + cell});
  }
  return v;
}

void agrees_with_serial_and_omp(bool device, bool large) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  for (const auto& x : corpus(base_seed(), large)) {
    const auto serial = mcm::cpu::serial(x);
    ASSERT_EQ(mcm::cpu::omp(x, 2).cost, serial.cost) << "n=" << x.n();
    for (const auto& [params, what] : settings(device, x))
      expect_optimal(device, x, serial.cost, params, what);
  }
}

// A few small cases of every kernel: what compute-sanitizer runs (sanitize.txt).
void small_cases(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  std::uint64_t seed = base_seed();
  for (std::int64_t n : {2, 17, 70}) {
    const auto x = mcm::random_instance(n, 1, 100, ++seed);
    for (const auto& [params, what] : settings(device, x))
      expect_optimal(device, x, mcm::cpu::serial(x).cost, params, what);
  }
}

TEST(KokkosMcmHost, SmallCases) { small_cases(false); }
TEST(KokkosMcmDevice, SmallCases) { small_cases(true); }
TEST(KokkosMcmHost, AgreesWithSerialAndOmp) { agrees_with_serial_and_omp(false, true); }
TEST(KokkosMcmDevice, AgreesWithSerialAndOmp) { agrees_with_serial_and_omp(true, true); }

void paper_example(bool device) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device);
  const mcm::Instance x{{2, 9, 3, 1, 4, 11, 5}};  // paper 002's Figure 1: 154
  for (const auto& [params, what] : settings(device, x))
    expect_optimal(device, x, 154, params, what);
}

TEST(KokkosMcmHost, PaperExample) { paper_example(false); }
TEST(KokkosMcmDevice, PaperExample) { paper_example(true); }

TEST(KokkosMcmHost, RefusesOverflowNamingTheBound) {
  DPGPU_KOKKOS_SKIP_UNLESS_RUNS(false);
  const auto x = mcm::random_instance(40, 1000000000, 2000000000, 1);  // split_bound far above 2^63
  const auto any = dpgpu::erase_instance<mcm::Problem>({"big", x, std::nullopt});
  try {
    solve(mcm_solver(false), any, {});
    FAIL() << "no refusal";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2^63 - 1"), std::string::npos) << e.what();
  }
  // cell 32 on costs that may reach 2^32 is refused by name.
  const auto y = mcm::random_instance(150, 2000, 3000, 2);
  const auto any_y = dpgpu::erase_instance<mcm::Problem>({"wide", y, std::nullopt});
  EXPECT_THROW(solve(mcm_solver(false), any_y, {{"cell", std::string("32")}}), dpgpu::InputError);
}

TEST(KokkosMcmRegistry, ParametersPerSpace) {
  const auto& device = mcm_solver(true);
  const auto& host = mcm_solver(false);
  EXPECT_EQ(device.backend_name, "kokkos-cuda");
  EXPECT_EQ(host.backend_name, "kokkos-openmp");
  EXPECT_EQ(device.schema.resolve({}).text("cell"), "auto");  // as gpu.mcm
  EXPECT_EQ(host.schema.resolve({}).text("cell"), "64");      // as cpu.omp
  EXPECT_EQ(device.schema.resolve({}).text("kernel"), "thread");
  EXPECT_THROW(device.schema.resolve({{"threads", std::int64_t{100}}}), dpgpu::InputError);
  EXPECT_THROW(host.schema.resolve({{"kernel", std::string("block")}}),
               dpgpu::InputError);  // GPU only
  const auto x = mcm::random_instance(1000, 1, 100, 1);
  const auto any = dpgpu::erase_instance<mcm::Problem>({"x", x, std::nullopt});
  // Diagonal-major 32-bit table (501,501 cells), int32 splits, the dimensions, and the walk's
  // 999 splits and 1002-interval stack on the device.
  const auto need = device.memory(any, device.schema.resolve({}));
  EXPECT_EQ(need.device, 501501u * 4 + 501501u * 4 + 1001u * 4 + 999u * 4 + 1002u * 8);
  // The host's symmetric square of int64.
  EXPECT_GE(host.memory(any, host.schema.resolve({})).host, 1001u * 1001u * 8);
}

}  // namespace
