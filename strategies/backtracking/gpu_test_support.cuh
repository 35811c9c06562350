// gpu_test_support.cuh — what the GPU tests of the searches share (test_backtracking_gpu.cu,
// test_ivm_multigpu.cu): a GPU Context with an hour's deadline, the skip without a device, and
// a search's answer held to the optimum, its tour rechecked by tsp::Problem::check.
#pragma once
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "backtracking.hpp"
#include "device_buffer.cuh"  // dpgpu::gpu::device_present
#include "dpgpu/context.hpp"
#include "tsp/search_bound.hpp"
#include "tsp/tsp.hpp"

namespace bt_test {

inline dpgpu::Context make_ctx() {
  return dpgpu::Context(dpgpu::Backend::Gpu,
                        std::chrono::steady_clock::now() + std::chrono::hours(1));
}

#define NEED_GPU() \
  if (!dpgpu::gpu::device_present()) GTEST_SKIP() << "no CUDA device"

// The search found `opt` (kNoBound: no tour, as cpu.dfs at a bound nothing beats) and, when
// it found one, a valid tour of that cost.
inline void expect_tour(const tsp::Instance& x, const dpgpu::backtracking::SearchOutcome& r,
                        std::int64_t opt, const std::string& what) {
  ASSERT_EQ(r.cost, opt) << what;
  if (opt == tsp::kNoBound) {
    ASSERT_TRUE(r.tour.empty()) << what;
    return;
  }
  const auto v = tsp::Problem::check(x, tsp::Solution{r.tour});
  ASSERT_TRUE(v.valid) << what << ": " << v.message;
  ASSERT_EQ(v.objective, opt) << what;
}

}  // namespace bt_test
