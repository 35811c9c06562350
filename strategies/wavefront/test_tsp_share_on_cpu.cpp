// test_tsp_share_on_cpu.cpp — the multi-GPU Held-Karp layer kernel's work per subset
// (relax_subset, tsp_multigpu_share.hpp, the code the kernel runs) on the CPU, with G = 1..8
// simulated GPUs: each GPU's shares in arrays of their own, the previous layer read through
// the LayerParts the kernel gets, every subset of every layer, argmins placed in one host
// array where the driver's offload places them (TspSplit::argmin_offset), the tour walked
// back by tsp_split_tour (the driver's). The cost equals cpu.held_karp, the tour passes
// tsp::Problem::check at that cost and is the same for every G, and the relaxations counted
// as remote equal tsp_remote_relaxations. 32- and 64-bit masks, int32 and int64 costs.
// Needs no GPU and no CUDA: checks the kernel's arithmetic and the layouts, not the streams,
// events and peer reads (test_tsp_multigpu.cu does those on a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "dpgpu/test_seed.hpp"
#include "tsp/generators.hpp"
#include "tsp/subset_rank.hpp"
#include "tsp/tsp.hpp"
#include "tsp_cpu.hpp"
#include "tsp_multigpu_share.hpp"
#include "tsp_split.hpp"

namespace {

using namespace dpgpu::wavefront;
using tsp_multi::LayerParts;

struct Simulated {
  std::int64_t cost = 0;
  std::vector<std::int32_t> tour;
  std::uint64_t remote = 0;
};

// Layer k's shares from layer k − 1's (`prev`), argmins into the host array.
template <class Cost, class Mask>
std::vector<std::vector<Cost>> layer(const TspSplit& s, int k,
                                     const std::vector<std::vector<Cost>>& prev,
                                     const std::vector<Cost>& arcs,
                                     const std::vector<std::uint32_t>& binom,
                                     std::vector<std::uint8_t>& host, std::uint64_t& remote) {
  LayerParts<Cost> parts;
  parts.gpus = s.gpus;
  for (int o = 0; o <= s.gpus; ++o) parts.lo[o] = std::uint32_t(s.lo(k - 1, o));
  for (int o = 0; o < s.gpus; ++o) parts.part[o] = prev[std::size_t(o)].data();
  std::vector<std::vector<Cost>> cur(static_cast<std::size_t>(s.gpus));
  for (int g = 0; g < s.gpus; ++g) {
    const auto count = std::uint32_t(s.subsets(k, g));
    cur[std::size_t(g)].assign(std::size_t(s.cells(k, g)), Cost(-7));  // poisoned
    std::vector<std::uint8_t> staging(std::size_t(s.cells(k, g)), 0xEE);
    for (std::uint32_t i = 0; i < count; ++i)
      remote += tsp_multi::relax_subset<Cost, Mask, true>(
          parts, cur[std::size_t(g)].data(), staging.data(), arcs.data(), binom.data(), s.m, k,
          std::uint32_t(s.lo(k, g)), count, i, g);
    std::copy(staging.begin(), staging.end(), host.begin() + std::ptrdiff_t(s.argmin_offset(k, g)));
  }
  return cur;
}

template <class Cost, class Mask>
Simulated simulate(const tsp::Instance& x, int gpus) {
  const int m = x.n - 1, stride = m | 1;
  const TspSplit s{m, gpus};
  std::vector<std::uint32_t> binom(tsp_multi::kBinomWords, 0);
  for (int c = 0; c < tsp_multi::kBinomRows; ++c)
    for (int i = 0; i < tsp_multi::kBinomRows; ++i)
      binom[std::size_t(c * tsp_multi::kBinomRows + i)] =
          std::uint32_t(tsp::subsets::kBinomials(c, i));
  std::vector<Cost> arcs(std::size_t(m * stride), 0);  // as staged in shared memory
  for (int j = 0; j < m; ++j)
    for (int c = 0; c < m; ++c) arcs[std::size_t(j * stride + c)] = Cost(x.arc(c + 1, j + 1));
  std::vector<std::vector<Cost>> shares(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g)
    for (std::uint64_t r = s.lo(1, g); r < s.lo(1, g + 1); ++r)
      shares[std::size_t(g)].push_back(Cost(x.arc(0, int(r) + 1)));
  std::vector<std::uint8_t> host(std::size_t(tsp_argmin_bytes(m)), 0xDD);
  Simulated out;
  for (int k = 2; k <= m; ++k)
    shares = layer<Cost, Mask>(s, k, shares, arcs, binom, host, out.remote);
  const std::vector<Cost>& full = shares[std::size_t(s.owner(m, 0))];  // one subset, m cells
  int best = 0;
  for (int p = 1; p < m; ++p)
    if (std::int64_t(full[std::size_t(p)]) + x.arc(p + 1, 0) <
        std::int64_t(full[std::size_t(best)]) + x.arc(best + 1, 0))
      best = p;
  out.cost = std::int64_t(full[std::size_t(best)]) + x.arc(best + 1, 0);
  out.tour = tsp_split_tour(s, host.data(), best);
  return out;
}

template <class Cost, class Mask>
void agree(const tsp::Instance& x, const std::string& what) {
  const std::int64_t want = tsp::cpu::held_karp(x).cost;
  const Simulated one = simulate<Cost, Mask>(x, 1);
  for (int gpus : {1, 2, 3, 4, 8}) {
    const Simulated r = simulate<Cost, Mask>(x, gpus);
    const std::string at = what + " n=" + std::to_string(x.n) + " gpus=" + std::to_string(gpus) +
                           " mask bits " + std::to_string(8 * sizeof(Mask)) + " cost bits " +
                           std::to_string(8 * sizeof(Cost));
    ASSERT_EQ(r.cost, want) << at;
    const auto v = tsp::Problem::check(x, {r.tour});
    ASSERT_TRUE(v.ok) << at << ": " << v.message;
    ASSERT_EQ(v.objective, want) << at;
    ASSERT_EQ(r.tour, one.tour) << at;
    const TspSplit s{x.n - 1, gpus};
    std::uint64_t remote = 0;
    for (int k = 2; k <= s.m; ++k) remote += tsp_remote_relaxations(s, k);
    ASSERT_EQ(r.remote, remote) << at;
  }
}

TEST(TspShareOnCpu, EveryGpuCountAgreesWithHeldKarp) {
  const std::uint64_t seed = dpgpu::base_seed();
  std::printf("[   SEED   ] DPGPU_TEST_SEED=%llu\n", static_cast<unsigned long long>(seed));
  for (int n = 3; n <= 12; ++n) {
    const std::uint64_t sd = seed + std::uint64_t(n) * 104729;
    const tsp::Instance a = tsp::random_matrix(n, 1, 1000, sd);
    agree<std::int32_t, std::uint32_t>(a, "random_matrix 1..1000");
    agree<std::int32_t, std::uint64_t>(a, "random_matrix 1..1000");
    const tsp::Instance ties = tsp::euclidean(n, 3, sd);
    agree<std::int32_t, std::uint32_t>(ties, "euclidean side 3 (ties)");
    const tsp::Instance wide = tsp::random_matrix(n, 0, 1'000'000'000'000, sd);
    agree<std::int64_t, std::uint64_t>(wide, "random_matrix 0..10^12");
    if (HasFatalFailure()) return;
  }
}

// A larger one: the selection among many non-empty shares, and ranks past the first
// thousands (n = 16: 32,767 subsets over 15 layers).
TEST(TspShareOnCpu, SixteenCities) {
  const tsp::Instance x = tsp::random_matrix(16, 1, 1000, dpgpu::base_seed() + 16);
  agree<std::int32_t, std::uint32_t>(x, "random_matrix 1..1000");
}

}  // namespace
