// test_myers_kernel_on_cpu.cpp — the kernel's source (myers_kernel.cuh), unchanged, run on the
// CPU through the warp emulation (lanes as fibers meeting at shuffles), held word for word to
// CpuPassRunner. One warp at a time takes all tickets in order, so every stripe's predecessor
// has finished before it starts: this checks indices, skew, the symbol and delta hand-over,
// slot encoding and padding, not timing or memory order between warps (the GPU test does).
#define DPGPU_MYERS_CPU_EMULATION 1
#include "cpu_warp_emulation.hpp"

#define __restrict__ __restrict
inline void __syncwarp() {}
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {  // wraps
  const unsigned long long old = *p;
  *p += v;
  return old;
}

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "dpgpu/test_seed.hpp"
#include "myers_kernel.cuh"
#include "myers_pass.hpp"
#include "myers_thread_kernel.cuh"
#include "lcs_thread_kernel.cuh"
#include "lcs/reference.hpp"

namespace {

using namespace dpgpu::myers;
namespace k = dpgpu::myers::kernel;

// The GPU runner's host half, with one emulated warp instead of a launch.
template <int W>
void run_emulated(const Symbols& s, const std::vector<PassJob>& jobs, Columns& out) {
  out.offset = column_offsets(jobs);
  std::vector<k::DevJob> dev;
  std::int64_t stripes = 0, slots = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const PassJob& j = jobs[i];
    k::DevJob d{};
    d.x_off = j.x_off, d.x_len = j.x_len, d.y_off = j.y_off, d.y_len = j.y_len;
    d.words = words_of(j.x_len);
    d.stripes = (d.words + 32 * W - 1) / (32 * W);
    d.stripe_base = stripes;
    d.slot_off = slots;
    d.out_off = out.offset[i];
    d.reversed = j.reversed;
    stripes += d.stripes;
    slots += (d.stripes - 1) * ((j.y_len + 31) / 32);
    dev.push_back(d);
  }
  std::vector<k::u64> slot(std::size_t(slots + 1), 0);
  std::vector<k::u64> smem(std::size_t(s.sigma) * W * 32);
  out.pv.assign(std::size_t(out.offset.back()), 0);
  out.mv.assign(std::size_t(out.offset.back()), 0);
  std::vector<unsigned long long> dist(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) dist[i] = (unsigned long long)jobs[i].y_len;
  unsigned long long ticket = 0;
  dpgpu_emu::launch(1, 32, [&] {
    k::pass_body<W>(dev.data(), int(dev.size()), stripes, s.x.data(), s.y.data(), s.sigma,
                    slot.data(), &ticket, out.pv.data(), out.mv.data(), dist.data(), smem.data());
  });
  out.distance.assign(dist.begin(), dist.end());
  for (std::int64_t i = 0; i < slots; ++i) ASSERT_NE(slot[std::size_t(i)], 0u) << "slot " << i;
}

std::string random_string(std::size_t n, int alphabet, std::mt19937_64& rng) {
  std::string s(n, '\0');
  for (auto& c : s) c = char(alphabet == 256 ? rng() % 256 : 'A' + rng() % alphabet);
  return s;
}

template <int W>
void expect_same_as_model(std::uint64_t seed) {
  constexpr std::int64_t kStripeBits = 32 * W * 64;
  std::mt19937_64 rng(seed);
  for (int alpha : {2, 4, 256}) {
    const std::string x = random_string(9000, alpha, rng), y = random_string(300, alpha, rng);
    const Symbols s = encode(x, y);
    std::vector<PassJob> jobs;
    const std::int64_t bits[] = {
        1, 63, 64, 65, kStripeBits - 1, kStripeBits, kStripeBits + 1, 2 * kStripeBits + 65};
    const std::int64_t rows[] = {1, 31, 32, 33, 95, 300};
    int t = 0;
    for (std::int64_t n : bits)
      for (std::int64_t m : rows) {
        PassJob j;
        j.x_len = std::min<std::int64_t>(n, 9000), j.y_len = m;
        j.x_off = (t * 37) % (9000 - j.x_len + 1), j.y_off = (t * 11) % (300 - m + 1);
        j.reversed = t % 2;
        jobs.push_back(j);
        ++t;
      }
    Columns want, got;
    CpuPassRunner(s).run(jobs, want, true);
    run_emulated<W>(s, jobs, got);
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < want.pv.size(); ++i)
      if ((got.pv[i] != want.pv[i] || got.mv[i] != want.mv[i]) && bad++ == 0) first = i;
    EXPECT_EQ(got.distance, want.distance) << "W=" << W << " alphabet " << alpha;
    EXPECT_EQ(bad, 0u) << "W=" << W << " alphabet " << alpha << ": first wrong word " << first
                       << " of " << want.pv.size() << " (seed " << seed << ")";
  }
}

TEST(MyersKernelOnCpu, SameColumnsAsTheModelW1) { expect_same_as_model<1>(dpgpu::base_seed()); }
TEST(MyersKernelOnCpu, SameColumnsAsTheModelW2) { expect_same_as_model<2>(dpgpu::base_seed()); }
TEST(MyersKernelOnCpu, SameColumnsAsTheModelW4) { expect_same_as_model<4>(dpgpu::base_seed()); }

// The one-pair-per-thread kernel's body (its grid-stride loop aside) against the model, for
// every W it is launched with, at lengths up to 64 W and with symbols of x that y lacks.
template <int W>
void expect_thread_pairs_as_model(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int alpha : {1, 4, 256}) {
    const std::string x = random_string(4000, alpha, rng), y = random_string(3000, alpha + 1, rng);
    const Symbols s = encode(x, y);
    std::vector<PassJob> jobs;
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{63}, std::int64_t{64},
                           64 * std::int64_t{W} - 1, 64 * std::int64_t{W}})
      for (std::int64_t m : {1, 2, 100, 2500})
        jobs.push_back({(n * 7) % 1000, n, (m * 3) % 400, m, false});
    Columns want;
    CpuPassRunner(s).run(jobs, want, false);
    std::vector<k::u64> peq(std::size_t(s.sigma) * W);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const auto& j = jobs[i];
      const dpgpu::myers::thread_kernel::PairJob p{j.x_off, j.y_off, std::int32_t(j.x_len),
                                                   std::int32_t(j.y_len), std::int64_t(i)};
      EXPECT_EQ(dpgpu::myers::thread_kernel::one_pair<W>(p, s.x.data(), s.y.data(), s.sigma,
                                                         peq.data(), 1),
                want.distance[i])
          << "W " << W << " alphabet " << alpha << " n " << j.x_len << " m " << j.y_len << " seed "
          << seed;
    }
  }
}

TEST(MyersThreadKernelOnCpu, SameDistancesAsTheModel) {
  const auto seed = dpgpu::base_seed();
  expect_thread_pairs_as_model<1>(seed);
  expect_thread_pairs_as_model<2>(seed);
  expect_thread_pairs_as_model<4>(seed);
  expect_thread_pairs_as_model<8>(seed);
  expect_thread_pairs_as_model<16>(seed);
}

// The one-pair-per-thread LCS body against the LCS reference, for every W it is launched with.
template <int W>
void expect_lcs_pairs_as_reference(std::uint64_t seed) {
  namespace lk = dpgpu::myers::lcs_thread_kernel;
  std::mt19937_64 rng(seed);
  for (int alpha : {1, 4, 256}) {
    const std::string x = random_string(4000, alpha, rng), y = random_string(3000, alpha + 1, rng);
    const Symbols s = encode(x, y);
    std::vector<k::u64> peq(std::size_t(s.sigma) * W);
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{63}, std::int64_t{64},
                           64 * std::int64_t{W} - 1, 64 * std::int64_t{W}})
      for (std::int64_t m : {1, 2, 100, 1500}) {
        const std::int64_t xo = (n * 7) % 1000, yo = (m * 3) % 400;
        const lk::PairJob p{xo, yo, std::int32_t(n), std::int32_t(m), 0};
        EXPECT_EQ(
            lk::lcs_one_pair<W>(p, s.x.data(), s.y.data(), s.sigma, peq.data(), 1),
            lcs::reference_length(std::string_view(x).substr(std::size_t(xo), std::size_t(n)),
                                  std::string_view(y).substr(std::size_t(yo), std::size_t(m))))
            << "W " << W << " alphabet " << alpha << " n " << n << " m " << m << " seed " << seed;
      }
  }
}

TEST(LcsThreadKernelOnCpu, SameLengthsAsTheReference) {
  const auto seed = dpgpu::base_seed();
  expect_lcs_pairs_as_reference<1>(seed);
  expect_lcs_pairs_as_reference<2>(seed);
  expect_lcs_pairs_as_reference<4>(seed);
  expect_lcs_pairs_as_reference<8>(seed);
  expect_lcs_pairs_as_reference<16>(seed);
}

}  // namespace
