// kokkos_test_support.hpp — what the Kokkos solvers' tests share: the solvers through the registry,
// a context for either backend, whether a GPU is here, and a seed printed with failures.
#pragma once
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <random>
#include <string>

#include <omp.h>

#include <algorithm>

#include "dpgpu/context.hpp"
#include "dpgpu/registry.hpp"
#include "dpgpu/test_seed.hpp"
#include "solvers.hpp"
#if DPGPU_KOKKOS_CUDA
#include <cuda_runtime.h>
#endif

namespace dpgpu::kokkos::test {

// ctest runs several test binaries at once; the host backend forks and joins all its
// threads once per dispatch (thousands in cell mode), which an oversubscribed machine turns
// into seconds per solve (on the 16-core GPU machine under ctest -j4 the LCS host tests took
// two minutes). At most four threads each, unless OMP_NUM_THREADS says otherwise; set before
// Kokkos is initialised (on the first solve).
inline const bool kThreadsCapped = [] {
  if (!std::getenv("OMP_NUM_THREADS")) omp_set_num_threads(std::min(4, omp_get_max_threads()));
  return true;
}();

inline const SolverEntry& solver(const std::string& problem, bool device) {
  const auto* s = Registry::get().solver(problem, device ? kDeviceSolver : kHostSolver);
  if (!s) throw std::runtime_error(problem + ": Kokkos solver not registered");
  return *s;
}

// Why the backend's tests cannot run here (skip), or empty.
inline std::string cannot_run(bool device) {
  if (std::string why = unavailable_reason(device); !why.empty()) return why;
#if DPGPU_KOKKOS_CUDA
  int count = 0;
  if (device && (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)) return "no CUDA device";
#endif
  return "";
}

#define DPGPU_KOKKOS_SKIP_UNLESS_RUNS(device)                         \
  do {                                                                \
    const std::string why_ = dpgpu::kokkos::test::cannot_run(device); \
    if (!why_.empty()) GTEST_SKIP() << why_;                          \
  } while (0)

// One solve through the registry, as the harness does it.
inline AnyOutcome solve(const SolverEntry& s, const AnyInstance& x, const ValueMap& params,
                        Context** ctx_out = nullptr) {
  static thread_local std::unique_ptr<Context> ctx;
  ctx = std::make_unique<Context>(s.backend, Context::Clock::now() + std::chrono::minutes(10));
  ctx->begin();
  AnyOutcome out = s.solve(x, s.schema.resolve(params), *ctx);
  ctx->end();
  if (ctx_out) *ctx_out = ctx.get();
  return out;
}

using dpgpu::base_seed;  // $DPGPU_TEST_SEED or fresh (dpgpu/test_seed.hpp)

}  // namespace dpgpu::kokkos::test
