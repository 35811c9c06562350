// test_support.hpp — what the baseline tests share: running every solver on an instance and
// holding each to the expected optimum and to check().
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "knapsack/knapsack.hpp"
#include "knapsack_cpu.hpp"

namespace knapsack::testing {

// Checks that `p` is a valid certificate worth `expected` (and says so in `what`).
inline void expect_optimal(const Instance& x, const cpu::Packing& p, std::int64_t expected,
                           const std::string& what) {
  EXPECT_EQ(p.value, expected) << what;
  const auto verdict = Problem::check(x, {p.items});
  EXPECT_TRUE(verdict.ok) << what << ": " << verdict.message;
  EXPECT_EQ(verdict.objective, p.value)
      << what << ": the certificate is not worth the reported value";
}

// Every solver (and the OpenMP one with 1, 2 and 3 threads) reaches `expected`.
inline void expect_all_solvers_reach(const Instance& x, std::int64_t expected,
                                     const std::string& what) {
  expect_optimal(x, cpu::dp(x), expected, what + " cpu.dp");
  for (int threads : {1, 2, 3})
    expect_optimal(x, cpu::omp_dp(x, threads), expected,
                   what + " cpu.omp_dp/" + std::to_string(threads));
  expect_optimal(x, cpu::branch_bound(x), expected, what + " cpu.branch_bound");
}

}  // namespace knapsack::testing
